-- The first record, by file and line, whose key repeats one before it in its scope (first_file,
-- first_rec: the first holder). `what` numbers the unique keys in the order of UNIQUE in
-- src/load/probe.ts, which names them; `scope` is the probe for most, the file for a tool call's id.
-- Registration records go in registration order (prereg.jsonl before addendum-1.jsonl): each file
-- at its place (omg_registration_place).
with file_rank as (
    select distinct file, omg_registration_place(rel) as place from records where kind = 'registration'
),
keyed as (
    select 0 as what, probe as scope, file, rec, json ->> 'session_id' as key from records where kind = 'results'
    union all
    select 1, probe, file, rec, json ->> 'seq' from records where kind = 'results'
    union all
    select 2, probe, file, rec, json ->> 'arm' from records where kind = 'registration' and (json ->> 'kind') = 'arm'
    union all
    select 3, probe, file, rec, json ->> 'n' from records where kind = 'registration' and (json ->> 'kind') = 'addendum'
    union all
    select 4, probe, file, rec, 'budget' from records where kind = 'registration' and (json ->> 'kind') = 'budget'
    union all
    -- A repeated line would count the call twice.
    select 5, file, file, rec, json ->> 'id' from records where kind = 'tool_use'
    union all
    select 6, probe, file, rec, format('({}, {})', to_json(json ->> 'session_id'), to_json(json ->> 'tool_use_id'))
    from records where kind = 'skill_results'
    union all
    -- A second note or pilot listing of a spawn would join it to spawns twice: two spawns.
    select 7, probe, file, rec, json ->> 'session_id' from records where kind = 'notes'
    union all
    select 8, probe, file, rec, unnest(from_json(json -> 'pilot', '["VARCHAR"]'))
    from records where kind = 'registration' and (json ->> 'kind') = 'addendum' and json_type(json, '$.pilot') = 'ARRAY'
    union all
    -- void_arms would keep one of two voids of an arm, its reason dropped in silence.
    select 9, probe, file, rec, unnest(list_transform(from_json(json -> 'void', '[{"arm":"VARCHAR"}]'), v -> v.arm))
    from records where kind = 'registration' and (json ->> 'kind') = 'addendum' and json_type(json, '$.void') = 'ARRAY'
)
select what, file, rec, key, first_file, first_rec from (
    select what, file, rec, key, place, row_number() over w as k, first_value(file) over w as first_file, first_value(rec) over w as first_rec
    from keyed left join file_rank using (file)
    window w as (partition by what, scope, key order by coalesce(place, 0), file, rec))
where k = 2 order by coalesce(place, 0), file, rec, what limit 1
