-- transcript_tool_results: the first tool_result answering each Skill or SlashCommand call in its own
-- session, from the tool_result blocks the pass kept (omg_result). A result too large to keep there
-- is `big`, with no text yet: results-big.sql reads it.
create or replace table transcript_tool_results as
with lines as (
    select coalesce(g.session_id, f.session_id) as session_id, f.abs, f.file, f.first, f.n, g.g.results1, g.g.results
    from scan_groups as g
    join scan_files as f using (abs)
),

blocks as (
    select session_id, abs, file, l.o - first + 1 as rec, l.timestamp, unnest(l.result)
    from (select session_id, abs, file, first, n, unnest(results1) as l from lines)
    where l.o - first + 1 <= n
    union all by name
    select session_id, abs, file, l.o - first + 1 as rec, l.timestamp, unnest(l.results, recursive := true)
    from (select session_id, abs, file, first, n, unnest(results) as l from lines)
    where l.o - first + 1 <= n
),

ranked as (
    select *, row_number() over (partition by session_id, tool_use_id order by omg_instant(timestamp) nulls last, file, rec, block) as k
    from blocks
    where (session_id, tool_use_id) in (select (session_id, tool_use_id) from transcript_tool_uses where skill is not null)
)

select session_id, tool_use_id, is_error or coalesce(result like '%<tool_use_error>%', false) as is_error, result,
       file, rec, abs, block, big
from ranked
where k = 1;
