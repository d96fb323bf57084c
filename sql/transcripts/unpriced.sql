-- The models of transcript_messages with no price (their cost_usd is NULL), and how many responses
-- each: one warning each. Responses that name no model are one row, its model NULL, last. A response
-- with no usage has no cost whatever its model (no-usage.sql warns of those).
select model, count(*) as responses
from transcript_messages
where cost_usd is null and not no_usage
group by all
order by model nulls last
