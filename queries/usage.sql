-- usage: the tokens and cost of the loaded transcripts' API responses, one row per day, week,
-- month, session, project or model, each response counted once at its final usage snapshot
-- (transcript_messages).
--
-- Needs no probe: this is the usage of any folder of session files, e.g. ~/.claude/projects.
--
-- reads:   transcript_messages
-- params:  period, timezone, since, until, breakdown
--   period     daily | weekly | monthly | session | project | model
--   timezone   the IANA zone days, weeks and months are counted in, e.g. Europe/Paris
--   since      the earliest response counted: a date (the responses of that day in timezone
--              on, compared as dates) or a timestamp (in timezone unless it gives its offset,
--              compared as instants); '' for none
--   until      the last counted, likewise (a date counts all of its day); '' for none.
--              A bound DuckDB cannot cast is an error, never no bound.
--   breakdown  true: a row per model under each row
-- returns: one row per period (or session, project, model), then, with breakdown, one per model
--          under it, and a totals row last
--   key                          VARCHAR  the day (YYYY-MM-DD), the week's Monday (YYYY-MM-DD),
--                                         the month (YYYY-MM), the session id, project or model;
--                                         NULL on the totals row
--   model                        VARCHAR  the model of a breakdown row (NULL for responses that name
--                                         none); NULL on the others
--   is_total                     BOOLEAN  the totals row
--   is_breakdown                 BOOLEAN  a breakdown row: one model's share of the row above it
--   sessions                     BIGINT   sessions with a response counted in the row
--   responses                    BIGINT   API responses
--   input_tokens                 BIGINT
--   output_tokens                BIGINT
--   cache_creation_input_tokens  BIGINT
--   cache_read_input_tokens      BIGINT
--   total_tokens                 BIGINT   the four summed
--   cost_usd                     DECIMAL  NULL when a response of the row has no cost (unpriced)
--   unpriced                     BIGINT   responses of no cost: their model has no price, or none of
--                                         their lines has usage (the tokens are the others')
--   first_at                     VARCHAR  the row's first response (the earliest instant), YYYY-MM-DD
--                                         HH:MM:SS in timezone, with its offset (+HH:MM) when the zone
--                                         repeats that time (a fall back's repeated hour)
--   last_at                      VARCHAR  the row's last response, likewise
--   undated_left_out             BIGINT   on the totals row: responses with no timestamp that since or
--                                         until left out (a bound cannot place them); NULL on the others
-- order:   key (sessions by their first instant), each row's models by cost, the totals row last
-- A response is placed by its first timestamp.

with

given as (
    select
        case when regexp_full_match($since, '\d{4}-\d{2}-\d{2}') then try_cast($since as DATE) end as since_day,
        case when $since = '' or regexp_full_match($since, '\d{4}-\d{2}-\d{2}') then null
             when regexp_matches($since, '(Z|[+-]\d{2}(:?\d{2})?)$') then try_cast($since as TIMESTAMPTZ)
             else timezone($timezone, try_cast($since as TIMESTAMP))
        end as since_at,
        case when regexp_full_match($until, '\d{4}-\d{2}-\d{2}') then try_cast($until as DATE) end as until_day,
        case when $until = '' or regexp_full_match($until, '\d{4}-\d{2}-\d{2}') then null
             when regexp_matches($until, '(Z|[+-]\d{2}(:?\d{2})?)$') then try_cast($until as TIMESTAMPTZ)
             else timezone($timezone, try_cast($until as TIMESTAMP))
        end as until_at
),

-- A bound that does not cast is an error: as NULL it would bound nothing, and count everything.
-- So is a since after the until: the report would be empty, as if no session had been found. With a
-- date on either side the two compare as days in timezone (a timestamp by its day there).
bounds as (
    select
        -- A period the report does not know would put every response under one key of none.
        case when $period is null or $period not in ('daily', 'weekly', 'monthly', 'session', 'project', 'model')
             then error('period must be daily, weekly, monthly, session, project or model; got ' || coalesce($period, 'NULL'))
             when $since <> '' and since_day is null and since_at is null
             then error('since: not a date or timestamp DuckDB reads: ' || $since)
             when $until <> '' and until_day is null and until_at is null
             then error('until: not a date or timestamp DuckDB reads: ' || $until)
             when since_at > until_at
               or coalesce(since_day, timezone($timezone, since_at)::DATE) > coalesce(until_day, timezone($timezone, until_at)::DATE)
             then error('since ' || $since || ' is after until ' || $until || ' in ' || $timezone || ': nothing would be counted')
             else since_at end as since_at,
        since_day,
        until_day,
        until_at
    from given
),

-- Responses with no timestamp cannot be placed within a bound: a bound leaves them out, and says how many.
left_out as (
    select count(*) as undated
    from transcript_messages as m, bounds as b
    where m.first_timestamp is null
      and (b.since_at is not null or b.since_day is not null or b.until_at is not null or b.until_day is not null)
),

counted as (
    select
        m.*,
        timezone($timezone, m.first_timestamp) as local_at
    from transcript_messages as m, bounds as b
    -- A date bounds the day a response is keyed by, compared as a date: a day whose midnight
    -- repeats (America/Havana falls back from 01:00 to 00:00) has no one first instant to compare.
    where (b.since_day is null or timezone($timezone, m.first_timestamp)::DATE >= b.since_day)
      and (b.since_at is null or m.first_timestamp >= b.since_at)
      and (b.until_day is null or timezone($timezone, m.first_timestamp)::DATE <= b.until_day)
      and (b.until_at is null or m.first_timestamp <= b.until_at)
),

keyed as (
    select
        *,
        case $period
            when 'daily' then strftime(local_at, '%Y-%m-%d')
            when 'weekly' then strftime(date_trunc('week', local_at), '%Y-%m-%d')
            when 'monthly' then strftime(local_at, '%Y-%m')
            when 'session' then session_id
            when 'project' then project
            when 'model' then model
        end as key
    from counted
),

grouped as (
    select
        key,
        model,
        grouping(key) = 1 as is_total,
        grouping(model) = 0 as is_breakdown,
        count(distinct session_id) as sessions,
        count(*) as responses,
        coalesce(sum(input_tokens), 0)::BIGINT as input_tokens,
        coalesce(sum(output_tokens), 0)::BIGINT as output_tokens,
        coalesce(sum(cache_creation_input_tokens), 0)::BIGINT as cache_creation_input_tokens,
        coalesce(sum(cache_read_input_tokens), 0)::BIGINT as cache_read_input_tokens,
        -- Nothing counted costs 0; a row holding a response of unknown cost has an unknown cost.
        case when count(*) filter (where cost_usd is null) = 0 then coalesce(sum(cost_usd), 0) end as cost_usd,
        count(*) filter (where cost_usd is null) as unpriced,
        -- The first and last instants: on a fall back, wall-clock time runs back.
        min(first_timestamp) as first_instant,
        max(first_timestamp) as last_instant
    from keyed
    group by grouping sets ((key), (key, model), ())
),

-- A row's first and last instants in timezone, with the zone's offset from UTC (in minutes) then and a
-- day before and after: a fall back between them repeats an hour (or so) of wall-clock time.
ends as (
    select
        *,
        list_transform([first_instant, last_instant], t -> {
            't': t,
            'local': timezone($timezone, t),
            'now': date_diff('minute', timezone('UTC', t), timezone($timezone, t)),
            'before': date_diff('minute', timezone('UTC', t - interval 1 day), timezone($timezone, t - interval 1 day)),
            'after': date_diff('minute', timezone('UTC', t + interval 1 day), timezone($timezone, t + interval 1 day))
        }) as e
    from grouped
),

-- Each shown as YYYY-MM-DD HH:MM:SS, with its offset when the zone repeats that wall-clock time (an
-- instant as far before or after as the clocks went back shows the same text). Per row, not per response.
shown as (
    select
        * exclude (e),
        list_transform(e, x -> strftime(x.local, '%Y-%m-%d %H:%M:%S')
            || case when (x.after < x.now and timezone($timezone, x.t + to_minutes(x.now - x.after)) = x.local)
                      or (x.before > x.now and timezone($timezone, x.t - to_minutes(x.before - x.now)) = x.local)
                    then printf('%s%02d:%02d', case when x.now < 0 then '-' else '+' end, abs(x.now) // 60, abs(x.now) % 60)
                    else '' end) as shown_at
    from ends
),

final as (
    select
        case when is_total then null else key end as key,
        case when is_breakdown then model end as model,
        is_total,
        is_breakdown,
        sessions,
        responses,
        input_tokens,
        output_tokens,
        cache_creation_input_tokens,
        cache_read_input_tokens,
        (input_tokens + output_tokens + cache_creation_input_tokens + cache_read_input_tokens)::BIGINT as total_tokens,
        cost_usd,
        unpriced,
        shown_at[1] as first_at,
        shown_at[2] as last_at,
        case when is_total then (select undated from left_out) end as undated_left_out,
        -- The place of a row: its key's (a session's by its first response), then its models'.
        min(case when $period = 'session' then strftime(timezone('UTC', first_instant), '%Y-%m-%d %H:%M:%S.%f') || key else key end)
            over (partition by key) as place
    from shown
    where not is_breakdown or ($breakdown and $period <> 'model')
)

select * exclude (place)
from final
order by is_total, place nulls last, key nulls last, is_breakdown, cost_usd desc nulls first, model
