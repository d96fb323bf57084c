-- The kept results marked `big` (results.sql), whose text is read again from their files: each
-- with its file's count of lines (results-big.sql numbers a share's lines from them), and the
-- table the shares' reads fill. Plain tables, for the connections that read the shares.
create or replace table transcript_big_wanted as
select r.abs, r.rec, r.block, r.tool_use_id, f.n
from transcript_tool_results as r
join scan_files as f using (abs)
where r.big;

create or replace table transcript_big_results as
select abs, rec, block, null::VARCHAR as result
from transcript_big_wanted
limit 0;
