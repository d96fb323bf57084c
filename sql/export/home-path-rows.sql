-- The rows of a transcript view that hold a home-directory path (src/base/home-paths.ts), as one row:
-- how many, and the first path. Record views are not searched here: loading warns of their files.
-- params: re  the home-path pattern (RE2; the path is its group 1 or 2). The relation searched, after `from`, is filled in by
-- src/db/export.ts: the view, or its export select.
select count(*) as n, min(p) as path
from (select case when regexp_matches(j, $re, 'i') then regexp_extract(j, $re, 1, 'i') || regexp_extract(j, $re, 2, 'i') else '' end as p
      from (select to_json(t)::VARCHAR as j from __VIEW__ t))
where p <> ''
having n > 0
