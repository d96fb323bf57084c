-- model_prices: the price table (data/pricing.json, or the file --pricing names), one row per
-- model id, in USD per million tokens, with the date of its prices and where they come from.
-- A model is priced by its id without a date suffix or a bracketed variant (omg_price_key).
-- params: file  the price table: a list of one absolute path (no glob)
create or replace table model_prices as
select e.key as model,
       e.value.input::DECIMAL(12, 6) as input,
       e.value.output::DECIMAL(12, 6) as output,
       e.value.cache_write_5m::DECIMAL(12, 6) as cache_write_5m,
       e.value.cache_write_1h::DECIMAL(12, 6) as cache_write_1h,
       e.value.cache_read::DECIMAL(12, 6) as cache_read,
       as_of,
       source
from (
    select as_of, source, unnest(map_entries(models)) as e
    from read_json($file, format = 'unstructured', records = true,
                   columns = {as_of: 'DATE', source: 'VARCHAR[]',
                              models: 'MAP(VARCHAR, STRUCT(input DOUBLE, output DOUBLE, cache_write_5m DOUBLE,
                                  cache_write_1h DOUBLE, cache_read DOUBLE))'})
);
