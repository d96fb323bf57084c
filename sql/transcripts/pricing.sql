-- price_rows, then model_prices: the price table (data/pricing.json, or the file --pricing names), one row per
-- model id, in USD per million tokens, with the date of its prices and where they come from.
-- A model is priced by its id without a date suffix or a bracketed variant (omg_price_key), and
-- so is a key of the table: `claude-opus-4-5-20251101` prices claude-opus-4-5 (key: as written).
-- params: file  the price table: a list of one absolute path (no glob)
-- price_rows keeps each key as written, and each price as read, for pricing-check.sql to name;
-- model_prices is made from it, without them, once checked.
create or replace temp table price_rows as
select omg_price_key(e.key) as model,
       e.key as key,
       try_cast(e.value.input::VARCHAR as DECIMAL(12, 6)) as input,
       try_cast(e.value.output::VARCHAR as DECIMAL(12, 6)) as output,
       try_cast(e.value.cache_write_5m::VARCHAR as DECIMAL(12, 6)) as cache_write_5m,
       try_cast(e.value.cache_write_1h::VARCHAR as DECIMAL(12, 6)) as cache_write_1h,
       try_cast(e.value.cache_read::VARCHAR as DECIMAL(12, 6)) as cache_read,
       as_of,
       source,
       -- As written (JSON), for pricing-check.sql: a price that is not a JSON number (true, "1e2"),
       -- or that DECIMAL(12, 6) would round or cannot hold, is refused.
       [e.value.input, e.value.output, e.value.cache_write_5m, e.value.cache_write_1h, e.value.cache_read] as raw,
       -- Which JSON document of the file: a price table is one.
       doc
from (
    select as_of, source, doc, unnest(map_entries(models)) as e
    from (select *, row_number() over () as doc
          from read_json($file, format = 'unstructured', records = true, maximum_object_size = 268435456,
                         columns = {as_of: 'DATE', source: 'VARCHAR[]',
                                    models: 'MAP(VARCHAR, STRUCT(input JSON, output JSON, cache_write_5m JSON,
                                        cache_write_1h JSON, cache_read JSON))'}))
);
