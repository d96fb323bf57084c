-- The first key of the price table (price_docs) that a price table does not have, at its top or among a
-- model's prices: read_json reads the keys it is told and passes over the rest, so a rate of a kind
-- omg-evidence does not price ("long_context_input") would have been ignored in silence.
select problem
from (
    select 1 as k, key as problem_key,
           '"' || key || '" is not a key of a price table (it has as_of, source, unit and models)' as problem
    from (select unnest(json_keys(json)) as key from price_docs where json_type(json) = 'OBJECT')
    where key not in ('as_of', 'source', 'unit', 'models')
    union all
    select 2, m.key || ' ' || p,
           'model ' || m.key || ': "' || p || '" is not a price omg-evidence reads (input, output, cache_write_5m, cache_write_1h, cache_read)'
    -- Each model listed once, its key beside its prices (both lists in the object's order): json_each joined to
    -- price_docs would parse the whole table once per model (json-values.sql), quadratic in the models.
    from (select unnest(json_keys(json -> 'models')) as key, unnest(json_extract(json, '$.models.*')) as value
          from price_docs
          where json_type(json -> 'models') = 'OBJECT') as m, unnest(json_keys(m.value)) as t(p)
    where json_type(m.value) = 'OBJECT'
      and p not in ('input', 'output', 'cache_write_5m', 'cache_write_1h', 'cache_read')
)
order by k, problem_key
limit 1
