-- transcript_messages: one row per API response, from the responses the pass kept (scan_responses:
-- fid, o and a response's columns: an assistant line's, or those a progress line mirrors), priced
-- by model_prices.
--
-- Claude Code writes a streamed response as one line per content block, each repeating the
-- response's usage as it stood then: output_tokens grows line by line, so only the last snapshot
-- is final. A response is its lines with the same message.id (and requestId, where a line has
-- one; a line without takes its message's requestId). Its usage is its final snapshot: the line
-- with the largest output_tokens, the last in file order on ties. A response written in two files
-- (a sub-agent's and its parent's, or a resumed session's copy) counts once, in the session of its
-- earliest line. A line with no message.id (or an empty one) is a response of its own. A response none
-- of whose lines has usage is one of unknown tokens: its counts and cost are NULL.

create or replace table transcript_messages as
-- Per file, not per line: its project, and its place in file order (file_no) for the keys below.
with files as (
    select fid, file, first, n, session_id, omg_project(abs) as project, row_number() over (order by file, abs) as file_no
    from scan_files
),

-- An empty message.id, requestId or model is none (a gateway that sends none), said once for every use below;
-- message_id itself is kept as the line wrote it (the column shows ''), its key is `id`. Not materialized:
-- read twice, it had been copied whole (every column of every response) for the lean read `requests` makes.
responses_read as not materialized (
    select * replace (nullif(request_id, '') as request_id, nullif(model, '') as model), nullif(message_id, '') as id
    from scan_responses
),

-- A line without requestId takes its message's in the same session (a join: a window over every line
-- sorts them): a message.id of another session is another response, however alike (a gateway's ids, a
-- copied session), and had lent its requestId. Not the same file: a sub-agent's line in its own file
-- and its mirror in the parent's (progress) are one response, which one requestId keys.
requests as (
    select coalesce(r.session_id, f.session_id) as session_id, r.id, max(r.request_id) as message_request
    from responses_read as r
    join files as f using (fid)
    where r.id is not null and r.request_id is not null
    group by all
),

lines as (
    select coalesce(r.session_id, f.session_id) as session_id, f.file_no, f.project, r.o - f.first + 1 as rec,
           omg_instant(r.timestamp) as line_at,
           -- A response's key: its message.id and requestId, as columns (ids joined into one string had made
           -- "m:b"+"c" and "m"+"b:c" one response); a line with no message.id is a response of its own, keyed
           -- by its file and record.
           r.id as k_id,
           case when r.id is not null then coalesce(r.request_id, q.message_request) end as k_request,
           case when r.id is null then f.file_no end as k_file,
           case when r.id is null then r.o end as k_line,
           r.* exclude (fid, o, session_id, timestamp, id),
           -- An assistant line with no usage (none of the four counts: usage-check.sql refuses usage of none).
           coalesce(r.input_tokens, r.output_tokens, r.cache_creation_input_tokens, r.cache_read_input_tokens) is not null as has_usage
    from responses_read as r
    join files as f using (fid)
    left join requests as q on q.id = r.id and q.session_id = coalesce(r.session_id, f.session_id)
    where r.o - f.first + 1 <= f.n
),

-- When a response's earliest lines are at one instant in two files, the file whose responses end first
-- holds it: Claude Code 1.0.x wrote a resumed session as a new file that starts with copies of the old
-- one's lines, timestamps and ids kept, and the original ends where the copy goes on.
file_ends as (
    select f.file_no, max(omg_instant(r.timestamp)) as ends_at
    from scan_responses as r
    join files as f using (fid)
    group by f.file_no
),

-- One row per response: its final snapshot's fields (f), its first line's (first), and what its lines say
-- together. The final line is the greatest of (has output_tokens, output_tokens, file, rec): the last in
-- file order on ties; the first the least of (has a timestamp first, timestamp, the file that ends first,
-- file, rec), whose session, project, cwd and branch are the response's, so that a response counts in one
-- place. arg_max and arg_min with struct keys, which compare field by field, stream where ordered
-- aggregates or windows sort.
snapshots as (
    select arg_max({'message_id': message_id, 'model': model, 'input_tokens': input_tokens, 'output_tokens': output_tokens,
                  'cache_creation_input_tokens': cache_creation_input_tokens,
                  'cache_read_input_tokens': cache_read_input_tokens,
                  'cache_creation_5m_input_tokens': cache_creation_5m_input_tokens,
                  'cache_creation_1h_input_tokens': cache_creation_1h_input_tokens, 'service_tier': service_tier,
                  'file_no': file_no, 'rec': rec, 'mirrored': mirrored},
                   {'usage': has_usage, 'known': output_tokens is not null, 'tokens': coalesce(output_tokens, 0), 'file': file_no,
                    'rec': rec}) as f,
           bool_or(has_usage) as has_usage,
           arg_min({'session_id': session_id, 'project': project, 'cwd': cwd, 'git_branch': git_branch},
                   {'unknown': line_at is null, 'at': coalesce(line_at, '-infinity'::TIMESTAMPTZ),
                    'ends': coalesce(ends_at, 'infinity'::TIMESTAMPTZ), 'file': file_no, 'rec': rec}) as first,
           min(line_at) as first_timestamp,
           max(line_at) as last_timestamp,
           bool_or(is_sidechain) as any_sidechain,
           max(agent_id) as any_agent,
           max(request_id) as any_request,
           count(*) as n_lines,
           -- Lines of one response that name different models (an id reused): messages.ts warns, then drops this.
           min(model) <> max(model) as mixed_models,
           arg_max(model, {'file': file_no, 'rec': rec}) filter (where model is not null) as any_model
    from lines
    join file_ends using (file_no)
    group by k_id, k_request, k_file, k_line
),

-- A response's model: its final line's, or, when that line names none, the one its last line that names
-- one does (a final line without message.model had made a priced response unpriced).
responses as (
    select *, coalesce(f.model, any_model) as model
    from snapshots
)

select s.first.session_id,
       s.f.message_id,
       s.any_request as request_id,
       s.model,
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
       s.first.cwd,
       s.first.git_branch,
       s.first.project,
       -- Cache writes without the 5-minute/1-hour split (before about 2.0) are priced as 5-minute ones,
       -- the only kind Claude Code wrote then. Per million as a DECIMAL factor: dividing would make a DOUBLE,
       -- whose rounding shows in a large cost's last digits.
       -- A response none of whose lines has usage costs what nobody knows: NULL, never 0 (no-usage.sql warns).
       case when s.model = '<synthetic>' then 0::DECIMAL(38, 9)
            when not s.has_usage then null
            else ((coalesce(s.f.input_tokens, 0) * p.input
                   + coalesce(s.f.output_tokens, 0) * p.output
                   + (coalesce(s.f.cache_creation_input_tokens, 0) - coalesce(s.f.cache_creation_1h_input_tokens, 0)) * p.cache_write_5m
                   + coalesce(s.f.cache_creation_1h_input_tokens, 0) * p.cache_write_1h
                   + coalesce(s.f.cache_read_input_tokens, 0) * p.cache_read) * 0.000001::DECIMAL(7, 6))::DECIMAL(38, 9)
       end as cost_usd,
       s.n_lines as lines,
       fl.file,
       s.f.rec,
       s.mixed_models,
       not s.has_usage as no_usage,
       -- Whether the final snapshot is a mirror's (usage-check.sql names its fields under data.message.message).
       s.f.mirrored as usage_mirrored
from responses as s
join files as fl on fl.file_no = s.f.file_no
left join model_prices as p on p.model = omg_price_key(s.model)
order by s.first_timestamp nulls last, fl.file, s.f.rec;
