-- The texts results-big.sql read, written into transcript_tool_results.
update transcript_tool_results as r
set result = t.result, is_error = r.is_error or coalesce(t.result like '%<tool_use_error>%', false), big = false
from transcript_big_results as t
where r.abs = t.abs and r.big and r.rec = t.rec and r.block = t.block;

drop table transcript_big_wanted;
drop table transcript_big_results;
