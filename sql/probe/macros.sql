-- The macros of the probe loader.

-- A registration file's place in registration order, by its name (rel, from the probe): 0 for the
-- pre-registration (prereg.jsonl and any file but an addendum's), n for registration/addendum-<n>.jsonl,
-- whatever it holds (an addendum record is refused in any other file: record-schemas.ts).
create or replace temp macro omg_registration_place(rel) as
    coalesce(try_cast(regexp_extract(rel, '^registration/addendum-([0-9]+)\.jsonl$', 1) as BIGINT), 0);
-- The envelope a results row carries: the object itself, or the last `"type":"result"` of a
-- --verbose array.
create or replace temp macro omg_envelope(e) as
  case json_type(e)
    when 'OBJECT' then e
    when 'ARRAY' then list_filter(from_json(e, '["JSON"]'), x -> (x ->> 'type') = 'result')[-1]
    else null
  end
