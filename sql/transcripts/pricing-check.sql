-- The first problem of the price table (price_rows, pricing.sql), if any: a table with no model, no date, or a
-- model priced twice, or without one of its five prices, or with a negative one.
select problem
from (
    select 0 as k, 'no "as_of" date: say when the prices were read' as problem
    where not exists (select 1 from price_rows where as_of is not null)
    union all
    select 1, 'no model in "models"'
    where not exists (select 1 from price_rows)
    union all
    -- Two rows for a model would price each of its responses twice (a key written twice, two
    -- tables in the file, a key with and without its date).
    select 2, 'model ' || model || ' is priced more than once (' || string_agg(key, ', ' order by key) || '): keep one'
    from price_rows
    group by model
    having count(*) > 1
    union all
    select 3, 'model ' || key || ': "' || f || '" must be a non-negative number of USD per million tokens'
    from (select key, unnest(['input', 'output', 'cache_write_5m', 'cache_write_1h', 'cache_read']) as f,
                 unnest([input, output, cache_write_5m, cache_write_1h, cache_read]) as v
          from price_rows)
    where v is null or v < 0
)
order by k, problem
limit 1
