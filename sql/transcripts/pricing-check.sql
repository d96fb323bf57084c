-- The first problem of the price table (price_rows, pricing.sql), if any: a table with no model, no date, or a
-- model priced twice, or without one of its five prices, or with one that is not a JSON number or is
-- negative, or one DECIMAL(12, 6) would round or cannot hold. (A second document is refused before, from price_docs.)
select problem
from (
    select 0 as k, 'no "as_of" date: say when the prices were read' as problem
    where exists (select 1 from price_rows) and not exists (select 1 from price_rows where as_of is not null)
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
                 unnest(raw) as v
          from price_rows)
    where coalesce(json_type(v) not in ('UBIGINT', 'BIGINT', 'DOUBLE') or try_cast(v::VARCHAR as DOUBLE) < 0, true)
    union all
    -- Held to six decimals below a million: a price that would be rounded (0.0000005 to 0) or cannot be held is refused.
    select 4, 'model ' || key || ': "' || f || '" is ' || v || ', which is not a price to six decimals below 1,000,000 USD per million tokens'
    from (select key, unnest(['input', 'output', 'cache_write_5m', 'cache_write_1h', 'cache_read']) as f,
                 unnest(raw)::VARCHAR as v,
                 unnest([input, output, cache_write_5m, cache_write_1h, cache_read]) as d
          from price_rows)
    where try_cast(v as DOUBLE) >= 0 and (d is null or d::DOUBLE <> try_cast(v as DOUBLE))
)
order by k, problem
limit 1
