-- The text of the kept results marked `big` (results.sql) in one file, read again: only the files
-- holding such a result, which answered a Skill call, are.
-- params: files  the file, twice (a lone file's BOM, files.sql); abs  the file
update transcript_tool_results as r
set result = t.result, is_error = r.is_error or coalesce(t.result like '%<tool_use_error>%', false), big = false
from (
    select w.rec, w.block, omg_result_text(x.json -> ('$.message.content[' || (w.block - 1) || '].content')) as result
    from read_ndjson_objects($files, maximum_object_size = 268435456) with ordinality as x
    join (select rec, block from transcript_tool_results where big and abs = $abs) as w on w.rec = x.ordinality
) as t
where r.abs = $abs and r.big and r.rec = t.rec and r.block = t.block;
