-- The first problem of model_prices (pricing.sql), if any: a table with no model, no date, or a
-- model without one of its five prices, or with a negative one.
select problem
from (
    select 0 as k, 'no "as_of" date: say when the prices were read' as problem
    where not exists (select 1 from model_prices where as_of is not null)
    union all
    select 1, 'no model in "models"'
    where not exists (select 1 from model_prices)
    union all
    select 2, 'model ' || model || ': "' || f || '" must be a non-negative number of USD per million tokens'
    from (select model, unnest(['input', 'output', 'cache_write_5m', 'cache_write_1h', 'cache_read']) as f,
                 unnest([input, output, cache_write_5m, cache_write_1h, cache_read]) as v
          from model_prices)
    where v is null or v < 0
)
order by k, problem
limit 1
