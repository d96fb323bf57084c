-- Per file, the record numbers of its lines that hold none of the fields read (omg_keyless).
select f.abs, f.file, list_sort(list_filter(flatten(list(list_transform(g.g.keyless_o, o -> o - f.first + 1))), r -> r <= f.n)) as recs
from scan_groups as g
join scan_files as f using (abs)
where len(g.g.keyless_o) > 0
group by f.abs, f.file, f.n
order by f.file;
