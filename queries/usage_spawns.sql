-- usage_spawns: each spawn's tokens and cost counted from its transcript (transcript_messages)
-- beside what its result envelope says (total_cost_usd and modelUsage), with their ratio.
--
-- The envelope counts calls the transcript never shows (Claude Code's own small-model calls, such
-- as a title or a summary); models_ratio compares the models both show, ratio everything. The verdict
-- compares each model both show on its own (differing_models): a sum over them had let cost move
-- between models, or tokens between kinds at equal cost.
--
-- reads:   spawns, model_usage, transcript_messages, transcript_sessions, model_prices
-- params:  tolerance  the most |models_ratio - 1| that agrees (agree --usage: 0.01); with no modelUsage
--                      the most ratio - 1 that does not differ
-- returns: one row per spawn
--   probe                      VARCHAR
--   seq                        BIGINT
--   arm                        VARCHAR
--   session_id                 VARCHAR
--   responses                  BIGINT     its transcript's API responses (0 when it shows none); NULL with no transcript
--   input_tokens               BIGINT     from the transcript, and so the next three
--   output_tokens              BIGINT
--   cache_creation_input_tokens BIGINT
--   cache_read_input_tokens    BIGINT
--   cost_usd                   DECIMAL    priced by model_prices; NULL when a model has no price
--   envelope_cost_usd          DOUBLE     the envelope's total_cost_usd; NULL with no envelope
--   ratio                      DOUBLE     cost_usd / envelope_cost_usd, to 4 places
--   priced_cost_usd            DECIMAL    what its priced responses cost (cost_usd when every model has a price)
--   priced_ratio               DOUBLE     priced_cost_usd / envelope_cost_usd, to 4 places
--   envelope_input_tokens      BIGINT     modelUsage summed over the models the transcript shows,
--   envelope_output_tokens     BIGINT     and so the next three and envelope_models_cost_usd
--   envelope_cache_creation_input_tokens BIGINT
--   envelope_cache_read_input_tokens     BIGINT
--   envelope_models_cost_usd   DOUBLE     their costUSD
--   models_ratio               DOUBLE     cost_usd / envelope_models_cost_usd, to 4 places
--   envelope_only_models       VARCHAR[]  modelUsage's models the transcript does not show
--   transcript_only_models     VARCHAR[]  the transcript's models that modelUsage does not list (NULL, last, for
--                                         a response that names none); empty with no modelUsage
--   differing_models           VARCHAR[]  the models both show (without date or variant) whose counts differ: the
--                                         transcript shows more tokens of a kind than modelUsage counts, or a
--                                         cost beyond the tolerance of its costUSD, once an excess of uncached
--                                         input and output tokens in the envelope (Claude Code's own calls) is
--                                         priced in; empty with no modelUsage
--   verdict                    VARCHAR    agree (no model in differing_models), differ
--                                         (so too when the transcript does not show the model the
--                                         envelope charged most, or one that used the prompt cache, or
--                                         shows a response of a model modelUsage does not list, or of none,
--                                         or one none of whose lines has usage, or
--                                         when, with no modelUsage, its priced responses cost more than
--                                         total_cost_usd by more than the tolerance), gone (no transcript),
--                                         no envelope, no model usage (an envelope without modelUsage, and
--                                         a transcript with a cost within its total), or unpriced (a model
--                                         of the transcript has no price)
-- order:   probe, seq
-- A model is matched by its id without a date suffix or bracketed variant (claude-opus-5[1m]).

with

-- Every session with a transcript, its responses counted (none: 0 of everything, at no cost).
counted as (
    select
        t.session_id,
        count(m.session_id) as responses,
        coalesce(sum(m.input_tokens), 0)::BIGINT as input_tokens,
        coalesce(sum(m.output_tokens), 0)::BIGINT as output_tokens,
        coalesce(sum(m.cache_creation_input_tokens), 0)::BIGINT as cache_creation_input_tokens,
        coalesce(sum(m.cache_read_input_tokens), 0)::BIGINT as cache_read_input_tokens,
        case when count(m.session_id) = 0 then 0 when bool_and(m.cost_usd is not null) then sum(m.cost_usd) end as cost_usd,
        -- What the priced responses cost: the least the whole transcript can cost when a model has no price.
        coalesce(sum(m.cost_usd), 0) as priced_cost,
        -- Responses none of whose lines has usage (all four counts NULL): their tokens are unknown.
        count(m.session_id) filter (where m.model is distinct from '<synthetic>' and m.input_tokens is null and m.output_tokens is null
                                    and m.cache_creation_input_tokens is null and m.cache_read_input_tokens is null) as no_usage
    from transcript_sessions as t
    left join transcript_messages as m using (session_id)
    group by all
),

shown_models as (
    select distinct
        session_id,
        regexp_replace(model, '(-[0-9]{8})?(\[[^\]]*\])?$', '') as model_key
    from transcript_messages
    where model is not null and model <> '<synthetic>'
),

envelope_models as (
    select
        u.*,
        regexp_replace(u.model, '(-[0-9]{8})?(\[[^\]]*\])?$', '') as model_key,
        exists (
            select 1 from shown_models as m
            where m.session_id = u.session_id and m.model_key = regexp_replace(u.model, '(-[0-9]{8})?(\[[^\]]*\])?$', '')
        ) as shown
    from model_usage as u
),

-- Responses modelUsage does not list (or that name no model): with modelUsage, Claude Code lists every model it
-- called, so such a response is not the spawn's. Counted here, a cut that left one had been excused as unpriced.
unlisted as (
    select m.session_id, list_sort(list(distinct m.model)) as models
    from transcript_messages as m
    where m.model is null or (m.model <> '<synthetic>' and not exists (
        select 1 from model_usage as u
        where u.session_id = m.session_id
            and regexp_replace(u.model, '(-[0-9]{8})?(\[[^\]]*\])?$', '') = regexp_replace(m.model, '(-[0-9]{8})?(\[[^\]]*\])?$', '')
    ))
    group by m.session_id
),

-- Each model both show, compared on its own. Claude Code's own calls (a title, a summary) are single uncached
-- requests that write no transcript line: the envelope may exceed the transcript by input and output tokens
-- only, when its cache counts equal the transcript's, and, on the model it charged most (whose responses the
-- transcript must hold: lines cut or zeroed there had passed as own calls), only as such calls are: more
-- input than output (a title or a summary of a long prompt), where an agent's turns write more than they are
-- newly given. That excess, priced, is added to what the transcript explains. No kind of token may be more in the transcript than in
-- the envelope, and a count modelUsage leaves out is none (a count the envelope drops had skipped the check).
per_model as (
    select
        u.probe,
        u.session_id,
        u.model_key,
        coalesce(t.input_tokens, 0) <= coalesce(u.input_tokens, 0) and coalesce(t.output_tokens, 0) <= coalesce(u.output_tokens, 0)
            and coalesce(t.cache_creation_input_tokens, 0) <= coalesce(u.cache_creation_input_tokens, 0)
            and coalesce(t.cache_read_input_tokens, 0) <= coalesce(u.cache_read_input_tokens, 0)
            and (
                (t.cost = 0 and coalesce(u.cost, 0) = 0)
                -- In DECIMAL, as |t - c| <= tolerance × c: a ratio in DOUBLE put a model exactly 1% off (0.08811
                -- against 0.089) a float step past 1%. A cost past DECIMAL(38, 9)'s 10^29 agrees with nothing.
                or (try_cast(u.cost as DECIMAL(38, 9)) <> 0
                    and abs(t.cost
                            + case when t.cache_creation_input_tokens = u.cache_creation_input_tokens
                                        and t.cache_read_input_tokens = u.cache_read_input_tokens
                                        and (u.model_key is distinct from m.main_key
                                             or u.output_tokens - t.output_tokens <= u.input_tokens - t.input_tokens)
                                   then (((u.input_tokens - t.input_tokens) * p.input
                                          + (u.output_tokens - t.output_tokens) * p.output) * 0.000001::DECIMAL(7, 6))::DECIMAL(38, 9)
                                   else 0 end
                            - try_cast(u.cost as DECIMAL(38, 9)))
                        <= $tolerance::DECIMAL(38, 9) * abs(try_cast(u.cost as DECIMAL(38, 9))))
            ) as agrees
    from (
        select probe, session_id, model_key,
               sum(input_tokens) as input_tokens, sum(output_tokens) as output_tokens,
               sum(cache_creation_input_tokens) as cache_creation_input_tokens,
               sum(cache_read_input_tokens) as cache_read_input_tokens, sum(cost_usd) as cost
        from envelope_models
        where shown
        group by all
    ) as u
    join (
        select
            session_id,
            regexp_replace(model, '(-[0-9]{8})?(\[[^\]]*\])?$', '') as model_key,
            sum(input_tokens) as input_tokens, sum(output_tokens) as output_tokens,
            sum(cache_creation_input_tokens) as cache_creation_input_tokens,
            sum(cache_read_input_tokens) as cache_read_input_tokens,
            case when bool_and(cost_usd is not null) then sum(cost_usd) end as cost
        from transcript_messages
        where model is not null and model <> '<synthetic>'
        group by all
    ) as t using (session_id, model_key)
    left join model_prices as p on p.model = u.model_key
    left join (select probe, session_id, arg_max(model_key, cost) as main_key
               from (select probe, session_id, model_key, sum(cost_usd) as cost from envelope_models group by all)
               group by all) as m
        using (probe, session_id)
),

envelope as (
    select
        probe,
        session_id,
        sum(input_tokens) filter (where shown)::BIGINT as envelope_input_tokens,
        sum(output_tokens) filter (where shown)::BIGINT as envelope_output_tokens,
        sum(cache_creation_input_tokens) filter (where shown)::BIGINT as envelope_cache_creation_input_tokens,
        sum(cache_read_input_tokens) filter (where shown)::BIGINT as envelope_cache_read_input_tokens,
        round(sum(cost_usd) filter (where shown), 6) as envelope_models_cost_usd,
        -- Unrounded, for the ratios: rounded to six places, a spawn of $0.0000005 had differed by half.
        sum(cost_usd) filter (where shown) as models_cost,
        -- Claude Code's own calls (a title, a summary) are single, uncached requests: a model the transcript does
        -- not show that read or wrote the prompt cache made turns of an agent whose lines are missing.
        bool_and(shown or cost_usd = 0 or (coalesce(cache_read_input_tokens, 0) = 0 and coalesce(cache_creation_input_tokens, 0) = 0))
            as unshown_excused,
        -- The model the envelope charged most must be in the transcript: a transcript that lost its responses
        -- shows none of them, and only Claude Code's own small calls may be missing (a model of $0 costs nothing).
        arg_max(shown or cost_usd = 0, cost_usd) as main_shown,
        coalesce(list(model order by model) filter (where not shown), []) as envelope_only_models
    from envelope_models
    group by all
),

compared as (
    select probe, session_id, count(*) as models,
           coalesce(list(model_key order by model_key) filter (where not coalesce(agrees, false)), []) as differing_models,
           -- Those that differ whatever their price: an unpriced model beside them had excused them all.
           count(*) filter (where not agrees) as differing_priced
    from per_model
    group by all
),

final as (
    select
        s.probe,
        s.seq,
        s.arm,
        s.session_id,
        c.responses,
        c.input_tokens,
        c.output_tokens,
        c.cache_creation_input_tokens,
        c.cache_read_input_tokens,
        c.cost_usd,
        s.cost_usd as envelope_cost_usd,
        round(c.cost_usd::DOUBLE / nullif(s.cost_usd, 0), 4) as ratio,
        c.priced_cost as priced_cost_usd,
        round(c.priced_cost::DOUBLE / nullif(s.cost_usd, 0), 4) as priced_ratio,
        e.envelope_input_tokens,
        e.envelope_output_tokens,
        e.envelope_cache_creation_input_tokens,
        e.envelope_cache_read_input_tokens,
        e.envelope_models_cost_usd,
        round(c.cost_usd::DOUBLE / nullif(e.models_cost, 0), 4) as models_ratio,
        coalesce(e.envelope_only_models, []) as envelope_only_models,
        -- Named, so that a difference they make says which (only with modelUsage, which lists every model).
        case when e.session_id is not null then coalesce(x.models, []) else [] end as transcript_only_models,
        coalesce(d.differing_models, []) as differing_models,
        case
            when c.session_id is null then 'gone'
            when s.cost_usd is null then 'no envelope'
            -- Before unpriced: a transcript that names a model its envelope never charged (a renamed one) is not excused.
            when not coalesce(e.main_shown and e.unshown_excused, true) then 'differ'
            -- Before unpriced too: a response modelUsage does not list (see unlisted) is not the spawn's.
            when e.session_id is not null and x.session_id is not null then 'differ'
            -- With no modelUsage, the envelope's total counts every response the transcript shows, and Claude Code's
            -- own calls besides: responses that cost more than it (the priced ones alone) cannot be explained.
            when e.session_id is null and c.priced_cost > try_cast(s.cost_usd as DECIMAL(38, 9)) * (1 + $tolerance::DECIMAL(38, 9)) then 'differ'
            when d.differing_priced > 0 then 'differ'
            -- Before unpriced: a response whose usage is gone (stripped) cannot agree with what its envelope
            -- charged, and as unpriced it had passed (exit 0).
            when c.no_usage > 0 then 'differ'
            when c.cost_usd is null then 'unpriced'
            -- A spawn that made no model call (an API error: only <synthetic> lines) costs 0 both ways.
            -- Its envelope says so too: one with no modelUsage but a cost had agreed with an empty transcript.
            when c.cost_usd = 0 and coalesce(e.models_cost, 0) = 0 and s.cost_usd = 0 then 'agree'
            -- With no modelUsage there is nothing to compare model by model; an empty transcript still differs.
            when e.session_id is null then case when c.cost_usd = 0 then 'differ' else 'no model usage' end
            -- Each model both show on its own (per_model); none shown (an envelope of models the transcript lacks) differs.
            when d.models > 0 and len(d.differing_models) = 0 then 'agree'
            else 'differ'
        end as verdict
    from spawns as s
    left join counted as c using (session_id)
    left join envelope as e using (probe, session_id)
    left join unlisted as x using (session_id)
    left join compared as d using (probe, session_id)
)

select * from final
order by probe, seq
