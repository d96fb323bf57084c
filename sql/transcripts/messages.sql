-- transcript_messages: one row per API response, from the responses the pass kept (scan_groups),
-- priced by model_prices; then the response columns of transcript_sessions.
--
-- Claude Code writes a streamed response as one line per content block, each repeating the
-- response's usage as it stood then: output_tokens grows line by line, so only the last snapshot
-- is final. A response is its lines with the same message.id (and requestId, where a line has
-- one; a line without takes its message's requestId). Its usage is its final snapshot: the line
-- with the largest output_tokens, the last in file order on ties. A response written in two files
-- (a sub-agent's and its parent's, or a resumed session's copy) counts once, in the session of its
-- earliest line. A line with no message.id is a response of its own.

create or replace table transcript_messages as
with responses as (
    select abs, unnest(responses, recursive := true)
    from scan_groups
    where responses is not null
),

lines as (
    select coalesce(r.session_id, f.session_id) as session_id, f.file, r.o - f.first + 1 as rec,
           try_cast(r.timestamp as TIMESTAMPTZ) as line_at, omg_project(f.abs) as project,
           r.* exclude (o, session_id, timestamp)
    from responses as r
    join scan_files as f using (abs)
    where r.o - f.first + 1 <= f.n
),

keyed as (
    select *,
           case when message_id is null then 'line:' || file || ':' || rec
                else message_id || ':' || coalesce(request_id, max(request_id) over (partition by message_id), '')
           end as k
    from lines
),

snapshots as (
    select *,
           row_number() over (partition by k order by output_tokens desc nulls last, file, rec desc) as final,
           first_value(session_id) over (partition by k order by line_at nulls last, file, rec) as first_session,
           min(line_at) over (partition by k) as first_timestamp,
           max(line_at) over (partition by k) as last_timestamp,
           bool_or(is_sidechain) over (partition by k) as any_sidechain,
           max(agent_id) over (partition by k) as any_agent,
           max(request_id) over (partition by k) as any_request,
           count(*) over (partition by k) as n_lines
    from keyed
)

select s.first_session as session_id,
       s.message_id,
       s.any_request as request_id,
       s.model,
       s.first_timestamp,
       s.last_timestamp,
       s.input_tokens,
       s.output_tokens,
       s.cache_creation_input_tokens,
       s.cache_read_input_tokens,
       s.cache_creation_5m_input_tokens,
       s.cache_creation_1h_input_tokens,
       s.service_tier,
       s.any_sidechain as is_sidechain,
       s.any_agent as agent_id,
       s.cwd,
       s.git_branch,
       s.project,
       -- Cache writes without the 5-minute/1-hour split (before about 2.0) are priced as 5-minute ones,
       -- the only kind Claude Code wrote then.
       case when s.model = '<synthetic>' then 0::DECIMAL(18, 9)
            else ((coalesce(s.input_tokens, 0) * p.input
                   + coalesce(s.output_tokens, 0) * p.output
                   + (coalesce(s.cache_creation_input_tokens, 0) - coalesce(s.cache_creation_1h_input_tokens, 0)) * p.cache_write_5m
                   + coalesce(s.cache_creation_1h_input_tokens, 0) * p.cache_write_1h
                   + coalesce(s.cache_read_input_tokens, 0) * p.cache_read) / 1000000)::DECIMAL(18, 9)
       end as cost_usd,
       s.n_lines as lines,
       s.file,
       s.rec
from snapshots as s
left join model_prices as p on p.model = omg_price_key(s.model)
where s.final = 1
order by s.first_timestamp nulls last, s.file, s.rec;

update transcript_sessions as t
set cwd = m.cwd,
    git_branch = m.git_branch,
    last_timestamp = m.last_timestamp,
    duration = m.last_timestamp - t.first_timestamp,
    responses = m.responses,
    input_tokens = m.input_tokens,
    output_tokens = m.output_tokens,
    cache_creation_input_tokens = m.cache_creation_input_tokens,
    cache_read_input_tokens = m.cache_read_input_tokens,
    cost_usd = m.cost_usd
from (
    select session_id,
           arg_min(cwd, first_timestamp) filter (where cwd is not null) as cwd,
           arg_min(git_branch, first_timestamp) filter (where git_branch is not null) as git_branch,
           max(last_timestamp) as last_timestamp,
           count(*) as responses,
           coalesce(sum(input_tokens), 0)::BIGINT as input_tokens,
           coalesce(sum(output_tokens), 0)::BIGINT as output_tokens,
           coalesce(sum(cache_creation_input_tokens), 0)::BIGINT as cache_creation_input_tokens,
           coalesce(sum(cache_read_input_tokens), 0)::BIGINT as cache_read_input_tokens,
           -- A session with a response of no price has no cost: a sum without it would pass for one.
           case when bool_and(cost_usd is not null) then sum(cost_usd)::DECIMAL(18, 9) end as cost_usd
    from transcript_messages
    group by session_id
) as m
where t.session_id = m.session_id;

update transcript_sessions
set responses = 0, input_tokens = 0, output_tokens = 0, cache_creation_input_tokens = 0, cache_read_input_tokens = 0,
    cost_usd = 0
where responses is null;
