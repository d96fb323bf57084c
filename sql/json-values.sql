-- What DuckDB's JSON reader lets through but RFC 8259 does not, in the records of view
-- json_records (file, rec, json): the first trailing comma (`[1,]`, `{"a":1,}`), non-finite number
-- (the reader takes NaN, Inf and Infinity in any case, with or without a minus), key repeated
-- within one object, or value nested more than 256 levels deep (RFC 8259 §9 lets a reader limit
-- nesting), by file, record and kind; none when every value is JSON.
-- Commas, numbers and depth are read from the record's text with its strings blanked (`bare`).
-- Outside a string, a word that is not true, false or null is such a number, and the brackets alone say how
-- deep a record goes. A regular expression can tell whether that depth exceeds 256, as no record
-- goes below zero: L(k) = (\[ L(k-1) \])* matches the brackets of depth at most k. This costs
-- time in proportion to the text, whatever its shape; a record of a million numbers took seconds
-- when every value was a row.
-- Keys are read from the objects: a record with few brackets has its nodes listed at once
-- (json_extract's `$.**`), unless it is over 1 MiB or listing them could exceed 64 MiB (the text's
-- length times its brackets bounds it). Any other record is walked a level at a time, down only
-- the containers whose text holds an object (json_tree and json_each, joined to a table, take
-- time quadratic in a record's nodes). A record too deep is not walked: its depth is the problem.
-- The routing and the listing are materialized: otherwise each use computes them again.
with recursive texts as materialized (
    select file, rec, json, strlen(json::VARCHAR) as size,
           ' ' || regexp_replace(json::VARCHAR, '(?s)"(?:[^"\\]|\\.)*"', '""', 'g') as bare
    from json_records
),

shapes as materialized (
    select file, rec, json, bare, deep,
           not deep and opens <= 256 and size <= 1048576 and size * (opens + 1) <= 67108864 as flat
    from (
        select *, opens > 256 and not regexp_full_match(
                      translate(regexp_replace(bare, '[^\[\]{}]+', '', 'g'), '{}', '[]'),
                      repeat('(?:\[', 256) || repeat('\])*', 256)) as deep
        from (select *, strlen(bare) - strlen(replace(replace(bare, '{', ''), '[', '')) as opens from texts)
    )
),

listed as materialized (
    select file, rec, json_keys(value) as keys
    from (
        select file, rec, json as value from shapes where flat
        union all
        select file, rec, unnest(json_extract(json, '$.**')) from shapes where flat
    )
    where json_type(value) = 'OBJECT'
),

-- A walked row is a container's text, or (value null) the keys of an object that repeats one:
-- each object is parsed once, for its keys and its values both, and an object with no container
-- in its text is not walked but read where it is found. Texts written by DuckDB start with their
-- bracket, as the reader's records do (it trims them).
walked(file, rec, value, keys, depth) as (
    select file, rec, json::VARCHAR, null::VARCHAR[], 0
    from shapes
    where not flat and not deep
    union all
    select file, rec, e.value, e.keys, depth + 1
    from (
        select file, rec, depth,
               unnest(list_concat(
                   list_transform(list_filter([map_keys(m)], k -> len(k) <> len(list_distinct(k))), k -> {'value': null::VARCHAR, 'keys': k}),
                   list_transform(list_filter(kids, c -> regexp_full_match(c, '\{[^\[{]*') and contains(c, ',')
                                                      and len(json_keys(c)) <> len(list_distinct(json_keys(c)))),
                                  c -> {'value': null::VARCHAR, 'keys': json_keys(c)}),
                   list_transform(list_filter(kids, c -> (starts_with(c, '{') and not regexp_full_match(c, '\{[^\[{]*'))
                                                      or (starts_with(c, '[') and contains(c, '{'))),
                                  c -> {'value': c, 'keys': null::VARCHAR[]}))) as e
        from (
            select file, rec, depth, m, coalesce(map_values(m), a) as kids
            from (
                select file, rec, depth,
                       case when starts_with(value, '{') then from_json(value, '"MAP(VARCHAR, JSON)"') end as m,
                       case when starts_with(value, '[') then from_json(value, '["JSON"]') end as a
                from walked
                where value is not null and depth < 256
            )
        )
    )
),

objects as (
    select file, rec, keys from listed
    union all
    select file, rec, keys from walked where keys is not null
),

-- The first key of an object that an earlier key repeats: sorted by key, then place, each copy
-- after a key's first is a repeat; the earliest of them in the object is the one. (Finding each
-- key's first place by list_position took time quadratic in the keys.)
repeats as (
    select file, rec, keys[list_min(list_transform(list_filter(sorted, (x, j) -> j > 1 and sorted[j - 1].k = x.k), x -> x.i))] as dup
    from (
        select file, rec, keys, list_sort(list_transform(keys, (k, i) -> {'k': k, 'i': i})) as sorted
        from objects
        where len(keys) <> len(list_distinct(keys))
    )
),

problems as (
    select file, rec, 'comma' as what, null::VARCHAR as detail
    from texts
    where regexp_matches(bare, ',\s*[\]}]')
    union all
    select file, rec, 'depth' as what, null::VARCHAR as detail
    from shapes
    where deep
    union all
    select file, rec, 'key' as what, dup as detail
    from repeats
    union all
    select file, rec, 'number' as what, list_min(words) as detail
    from (
        select file, rec, list_filter(regexp_extract_all(bare, '[\s\[{,:](-?[A-Za-z]+)', 1), w -> w not in ('true', 'false', 'null')) as words
        from texts
    )
    where len(words) > 0
)

select file, rec, what, detail
from problems
order by file, rec, what, detail
limit 1
