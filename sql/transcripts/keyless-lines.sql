-- The lines with none of the fields the loader reads (omg_keyless): not JSON, not an object, or an
-- object without them (`{}` is a record). keyless.sql looks at them again to tell which.
create or replace temp table keyless_lines as
select abs, file, rec
from (
    select f.abs, f.file, f.n, unnest(list_transform(g.g.keyless_o, o -> o - f.first + 1)) as rec
    from scan_groups as g
    join scan_files as f using (abs)
    where len(g.g.keyless_o) > 0
)
where rec <= n;
