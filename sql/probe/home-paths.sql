-- Each committed file that holds a home-directory path: a record of any kind, or a line of a
-- tool_use/<session_id>.err (rec is then the line number, file NULL). Per file, the first such line
-- and its path, and how many lines hold one. A separator spelled as a JSON escape (\u002f, \u005c)
-- is read as the character it stands for, as any JSON reader (and audit) reads it.
-- params: re  the home-path pattern (RE2, src/base/home-paths.ts): the path is its group 1 or 2
with raw as (
    select probe, rel, file, rec, json::VARCHAR as text from records
    union all
    select probe, rel, null, generate_subscripts(l, 1), unnest(l)
    from (select s.probe, f.rel, string_split(s.stderr, chr(10)) as l
          from spawns s join source_files f on f.probe = s.probe and f.session_id = s.session_id and f.kind = 'tool_use_err')
),
lines as (
    select probe, rel, file, rec, regexp_replace(regexp_replace(text, '\\u002[fF]', '/', 'g'), '\\u005[cC]', '\\', 'g') as text
    from raw
)
select probe, rel, any_value(file) as file, min(rec) as rec, arg_min(path, rec) as path, count(*) as n
from (select *, case when regexp_matches(text, $re, 'i') then regexp_extract(text, $re, 1, 'i') || regexp_extract(text, $re, 2, 'i') else '' end as path from lines)
where path <> ''
group by probe, rel
order by probe, rel
