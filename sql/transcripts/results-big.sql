-- The text of the kept results marked `big` in one share of the files that hold one
-- (results-big-wanted.sql), read again: only those files, which answered a Skill call, are. Each
-- share is read on a connection of its own; results-big-set.sql writes what they found.
-- params: files  the share's files (a lone file twice: the first copy's record numbers are kept)
--         abs    the same files, unescaped, once each, in the same order
insert into transcript_big_results
with starts as (
    -- A scan numbers its lines across its files, one after the other: a file's lines begin after
    -- those of the files before it.
    select abs, coalesce(sum(n) over (order by list_position($abs, abs) rows between unbounded preceding and 1 preceding), 0) as start
    from (select distinct abs, n from transcript_big_wanted where list_contains($abs, abs))
),

wanted as (
    select w.abs, s.start + w.rec as o, w.rec, w.block, w.tool_use_id
    from transcript_big_wanted as w
    join starts as s using (abs)
),

blocks as (
    select w.abs, w.rec, w.block, w.tool_use_id, x.json -> ('$.message.content[' || (w.block - 1) || ']') as b
    from read_ndjson_objects($files, filename = true, maximum_object_size = 268435456) with ordinality as x
    join wanted as w on w.abs = x.filename and w.o = x.ordinality
)

-- The block must answer the call it was kept for: a line numbered wrong finds no text, never another's.
select abs, rec, block, omg_result_text(b -> '$.content') as result
from blocks
where b ->> '$.tool_use_id' = tool_use_id;
