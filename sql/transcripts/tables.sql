-- The transcript tables, from scan_groups and scan_files, once every line is known to be a record.

-- The columns after `files` are about the session's responses: cwd and git_branch those of its
-- first, last_timestamp its last one's, the token totals and cost their sums (the pass census
-- makes reads no usage, and gains no aggregate for them). messages.sql fills them when it builds
-- transcript_messages; a load that builds no transcript_messages leaves them NULL.
create or replace table transcript_sessions as
select session_id, try_cast(first_timestamp as TIMESTAMPTZ) as first_timestamp, versions, models, lines, files,
       null::VARCHAR as cwd, project, null::VARCHAR as git_branch,
       null::TIMESTAMPTZ as last_timestamp,
       null::INTERVAL as duration,
       null::BIGINT as responses,
       null::BIGINT as input_tokens, null::BIGINT as output_tokens,
       null::BIGINT as cache_creation_input_tokens, null::BIGINT as cache_read_input_tokens,
       null::DECIMAL(38, 9) as cost_usd
from (
    select coalesce(g.session_id, f.session_id) as session_id,
           min(g.g.first_timestamp) as first_timestamp,
           coalesce(list_sort(list_distinct(flatten(list(g.g.versions) filter (where g.g.versions is not null)))), []) as versions,
           coalesce(list_sort(list_distinct(flatten(list(g.g.models) filter (where g.g.models is not null)))), []) as models,
           sum(g.g.lines // f.copies)::BIGINT as lines,
           list_sort(list_distinct(list(f.file))) as files,
           -- The folder of the file that holds its earliest line: a session whose files are in two projects
           -- (one renamed or moved) is where it began (its cwd, its first response's, may be in the other).
           arg_min(omg_project(f.abs), {'unknown': g.g.first_timestamp is null,
                                        'at': coalesce(g.g.first_timestamp, '-infinity'::TIMESTAMPTZ),
                                        'file': f.file, 'abs': f.abs}) as project
    from scan_groups as g
    join scan_files as f using (abs)
    group by all
);

-- Copies of a call share its id: the first in transcript order counts; a block without an id is a
-- call of its own. Transcript order is by instant (omg_instant: a line at 10:00+09:00 comes before
-- one at 05:00Z; lines whose timestamp is no time last), then file, line and block: never by how a
-- timestamp is written, so 00:00Z and 00:00:00.000Z are one instant, and the earlier line counts.
-- The instant is cast once per call, not once per window. `lines` is read twice (lines of one
-- call, lines of several): materialized, it had copied every list of calls first.
create or replace table transcript_tool_uses as
with lines as not materialized (
    select coalesce(g.session_id, f.session_id) as session_id, f.file, f.first, f.n, g.g.calls1, g.g.calls
    from scan_groups as g
    join scan_files as f using (abs)
),

calls as (
    select session_id, file, l.o - first + 1 as rec, l.timestamp, omg_instant(l.timestamp) as instant, l.version, l.model,
           l.is_sidechain, l.agent_id, unnest(l.call)
    from (select session_id, file, first, n, unnest(calls1) as l from lines)
    where l.o - first + 1 <= n
    union all by name
    select session_id, file, l.o - first + 1 as rec, l.timestamp, omg_instant(l.timestamp) as instant, l.version, l.model,
           l.is_sidechain, l.agent_id, unnest(l.calls, recursive := true)
    from (select session_id, file, first, n, unnest(calls) as l from lines)
    where l.o - first + 1 <= n
),

-- A copy that names another tool or input (what the pass read of it) is not a copy: the kept one
-- is marked `differs` (copies-differ.sql warns of it; the column is dropped after).
ranked as (
    select *,
           case when id is null then 1 else row_number() over same end as k,
           case when id is not null then min(h) over same <> max(h) over same end as differs
    from (select *, hash(name, skill, path, command, input_keys) as h from calls)
    -- One window for the order and for the whole set of copies: one sort.
    window same as (partition by session_id, id order by instant nulls last, file, rec, block
                    rows between unbounded preceding and unbounded following)
)

-- The other copies of a call whose copies differ are kept too, with no ordinal, for
-- transcript_tool_use_copies below (forgeable reads every copy); an honest transcript has none.
select session_id,
       case when k = 1 then row_number() over (partition by session_id, k = 1 order by instant nulls last, file, rec, block, id) end as ordinal,
       id as tool_use_id, name, input_keys, skill, case when is_sidechain then agent_id end as agent_id, is_sidechain,
       timestamp, version, model, file, rec, block, path, command, differs
from ranked
where k = 1 or differs;

-- Each copy of a call whose copies differ but the counted one (copy 1): the census counts the first,
-- while any copy could have written a file (forgeable.sql). Numbered here, where there are few.
create or replace table transcript_tool_use_copies as
select session_id, tool_use_id,
       1 + row_number() over (partition by session_id, tool_use_id order by omg_instant(timestamp) nulls last, file, rec, block) as copy,
       name, input_keys, skill, agent_id, is_sidechain, timestamp, version, model, file, rec, block, path, command
from transcript_tool_uses
where ordinal is null;

delete from transcript_tool_uses where ordinal is null;
