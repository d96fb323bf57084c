-- cost_by_model: what each model cost, from the envelopes' modelUsage.
--
-- reads:   model_usage
-- params:  none
-- returns: one row per probe and model
--   probe                        VARCHAR
--   model                        VARCHAR  the modelUsage key, e.g. claude-opus-5[1m]
--   spawns                       BIGINT   envelopes that used it
--   cost_usd                     DOUBLE   to the micro-dollar; NULL when an envelope that used it gives
--                                         no costUSD for it (its cost is unknown, not a part)
--   input_tokens                 BIGINT   each token count NULL, as cost_usd, when an envelope's entry
--   output_tokens                BIGINT   lacks it
--   cache_read_input_tokens      BIGINT
--   cache_creation_input_tokens  BIGINT
-- order:   probe, cost_usd desc, model

select
    probe,
    model,
    count(*) as spawns,
    case when count(cost_usd) = count(*) then round(sum(cost_usd), 6) end as cost_usd,
    case when count(input_tokens) = count(*) then sum(input_tokens)::BIGINT end as input_tokens,
    case when count(output_tokens) = count(*) then sum(output_tokens)::BIGINT end as output_tokens,
    case when count(cache_read_input_tokens) = count(*) then sum(cache_read_input_tokens)::BIGINT end as cache_read_input_tokens,
    case when count(cache_creation_input_tokens) = count(*) then sum(cache_creation_input_tokens)::BIGINT end as cache_creation_input_tokens
from model_usage
group by all
order by probe, cost_usd desc, model
