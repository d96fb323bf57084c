-- The responses the pass kept as a list per file and session (scan-usage.sql), as rows for
-- messages.sql: a table, not a view. messages.sql reads them three times, and DuckDB then
-- materialises the view's unnest as a common subplan, which took time and memory far beyond the
-- rows' (40 files of 500 responses: 11-14 s and 3.3 GB; report ran out of memory on every bench corpus).
create or replace temp table scan_responses as
select i.fid, unnest(g.responses, recursive := true)
from scan_groups as g
join transcript_input_files as i using (abs)
where g.responses is not null;
