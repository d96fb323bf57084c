-- The macros of the probe loader.

-- A registration file's place in registration order, by its name (rel, from the probe): prereg.jsonl
-- 0, any other file but an addendum's 1 (then by name), registration/addendum-<n>.jsonl n + 1,
-- whatever it holds (an addendum record is refused in any other file: record-schemas.ts).
create or replace temp macro omg_registration_place(rel) as
    case when rel = 'registration/prereg.jsonl' then 0
         else coalesce(try_cast(regexp_extract(rel, '^registration/addendum-([0-9]+)\.jsonl$', 1) as HUGEINT) + 1, 1) end;

-- The envelope a results row carries: the object itself, or the last `"type":"result"` of a
-- --verbose array.
create or replace temp macro omg_envelope(e) as
  case json_type(e)
    when 'OBJECT' then e
    when 'ARRAY' then list_filter(from_json(e, '["JSON"]'), x -> (x ->> 'type') = 'result')[-1]
    else null
  end
