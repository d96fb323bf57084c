-- The rows of a transcript view that hold a home-directory path (src/base/home-paths.ts), as one row:
-- how many, and the first path. Record views are not searched here: loading warns of their files.
-- params: re  the home-path pattern (RE2). The relation searched, after `from`, is filled in by
-- src/db/export.ts: the view, or its export select.
select count(*) as n, min(p) as path
from (select regexp_extract(to_json(t)::VARCHAR, $re, 1, 'i') as p from __VIEW__ t)
where p <> ''
having n > 0
