-- cost_by_model: what each model cost, from the envelopes' modelUsage.
--
-- reads:   model_usage
-- params:  none
-- returns: one row per probe and model
--   probe                        VARCHAR
--   model                        VARCHAR  the modelUsage key, e.g. claude-opus-5[1m]
--   spawns                       BIGINT   envelopes that used it
--   cost_usd                     DOUBLE   to the micro-dollar; NULL when no envelope gives its costUSD
--   input_tokens                 BIGINT
--   output_tokens                BIGINT
--   cache_read_input_tokens      BIGINT
--   cache_creation_input_tokens  BIGINT
-- order:   probe, cost_usd desc, model

select
    probe,
    model,
    count(*) as spawns,
    round(sum(cost_usd), 6) as cost_usd,
    sum(input_tokens)::BIGINT as input_tokens,
    sum(output_tokens)::BIGINT as output_tokens,
    sum(cache_read_input_tokens)::BIGINT as cache_read_input_tokens,
    sum(cache_creation_input_tokens)::BIGINT as cache_creation_input_tokens
from model_usage
group by all
order by probe, cost_usd desc, model
