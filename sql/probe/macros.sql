-- The macros of the probe loader.
-- The envelope a results row carries: the object itself, or the last `"type":"result"` of a
-- --verbose array.
create or replace temp macro omg_envelope(e) as
  case json_type(e)
    when 'OBJECT' then e
    when 'ARRAY' then list_filter(from_json(e, '["JSON"]'), x -> (x ->> 'type') = 'result')[-1]
    else null
  end
