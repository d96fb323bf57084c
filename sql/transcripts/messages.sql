-- transcript_messages: one row per API response, from the responses the pass kept (scan_responses:
-- abs, o and the columns of omg_response), priced by model_prices.
--
-- Claude Code writes a streamed response as one line per content block, each repeating the
-- response's usage as it stood then: output_tokens grows line by line, so only the last snapshot
-- is final. A response is its lines with the same message.id (and requestId, where a line has
-- one; a line without takes its message's requestId). Its usage is its final snapshot: the line
-- with the largest output_tokens, the last in file order on ties. A response written in two files
-- (a sub-agent's and its parent's, or a resumed session's copy) counts once, in the session of its
-- earliest line. A line with no message.id is a response of its own.

create or replace table transcript_messages as
with lines as (
    select coalesce(r.session_id, f.session_id) as session_id, f.file, f.file_no, r.o - f.first + 1 as rec,
           try_cast(r.timestamp as TIMESTAMPTZ) as line_at, f.project,
           r.* exclude (o, session_id, timestamp)
    from scan_responses as r
    -- Per file, not per line: its project, and its rank in file order (file_no) for the keys below.
    join (select *, omg_project(abs) as project, dense_rank() over (order by file) as file_no from scan_files) as f using (abs)
    where r.o - f.first + 1 <= f.n
),

-- A line without requestId takes its message's (a join: a window over every line sorts them).
requests as (
    select message_id, max(request_id) as message_request
    from lines
    where message_id is not null and request_id is not null
    group by message_id
),

keyed as (
    select l.*,
           case when l.message_id is null then 'line:' || l.file || ':' || l.rec
                else l.message_id || ':' || coalesce(l.request_id, q.message_request, '')
           end as k
    from lines as l
    left join requests as q using (message_id)
),

-- One row per response: its final snapshot's fields (f), and what its lines say together. The
-- final line is the greatest of (has output_tokens, output_tokens, file first, rec last), the first
-- session the least of (has a timestamp first, timestamp, file, rec): arg_max and arg_min with
-- struct keys, which compare field by field, stream where ordered aggregates or windows sort.
snapshots as (
    select arg_max({'message_id': message_id, 'model': model, 'input_tokens': input_tokens, 'output_tokens': output_tokens,
                  'cache_creation_input_tokens': cache_creation_input_tokens,
                  'cache_read_input_tokens': cache_read_input_tokens,
                  'cache_creation_5m_input_tokens': cache_creation_5m_input_tokens,
                  'cache_creation_1h_input_tokens': cache_creation_1h_input_tokens, 'service_tier': service_tier,
                  'cwd': cwd, 'git_branch': git_branch, 'project': project, 'file': file, 'rec': rec},
                   {'known': output_tokens is not null, 'tokens': coalesce(output_tokens, 0), 'file': -file_no, 'rec': rec}) as f,
           arg_min(session_id, {'unknown': line_at is null, 'at': coalesce(line_at, '-infinity'::TIMESTAMPTZ), 'file': file_no, 'rec': rec}) as first_session,
           min(line_at) as first_timestamp,
           max(line_at) as last_timestamp,
           bool_or(is_sidechain) as any_sidechain,
           max(agent_id) as any_agent,
           max(request_id) as any_request,
           count(*) as n_lines
    from keyed
    group by k
)

select s.first_session as session_id,
       s.f.message_id,
       s.any_request as request_id,
       s.f.model,
       s.first_timestamp,
       s.last_timestamp,
       s.f.input_tokens,
       s.f.output_tokens,
       s.f.cache_creation_input_tokens,
       s.f.cache_read_input_tokens,
       s.f.cache_creation_5m_input_tokens,
       s.f.cache_creation_1h_input_tokens,
       s.f.service_tier,
       s.any_sidechain as is_sidechain,
       s.any_agent as agent_id,
       s.f.cwd,
       s.f.git_branch,
       s.f.project,
       -- Cache writes without the 5-minute/1-hour split (before about 2.0) are priced as 5-minute ones,
       -- the only kind Claude Code wrote then.
       case when s.f.model = '<synthetic>' then 0::DECIMAL(18, 9)
            else ((coalesce(s.f.input_tokens, 0) * p.input
                   + coalesce(s.f.output_tokens, 0) * p.output
                   + (coalesce(s.f.cache_creation_input_tokens, 0) - coalesce(s.f.cache_creation_1h_input_tokens, 0)) * p.cache_write_5m
                   + coalesce(s.f.cache_creation_1h_input_tokens, 0) * p.cache_write_1h
                   + coalesce(s.f.cache_read_input_tokens, 0) * p.cache_read) / 1000000)::DECIMAL(18, 9)
       end as cost_usd,
       s.n_lines as lines,
       s.f.file,
       s.f.rec
from snapshots as s
left join model_prices as p on p.model = omg_price_key(s.f.model)
order by s.first_timestamp nulls last, s.f.file, s.f.rec;
