-- The first line, by file and record number, whose timestamp or version is not a string; none when
-- there is none. Lines with none of the fields read (not JSON, not objects, or `{}`) are looked at
-- apart (keyless-lines.sql, keyless.sql).
select f.abs, f.file, g.g.mistyped_o - f.first + 1 as rec
from scan_groups as g
join scan_files as f using (abs)
where g.g.mistyped_o is not null
order by f.file, rec
limit 1;
