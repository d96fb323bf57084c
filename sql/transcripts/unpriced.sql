-- The models of transcript_messages with no price (their cost_usd is NULL), and how many responses
-- each: one warning each. A response that names no model is counted as "(none)".
select coalesce(model, '(none)') as model, count(*) as responses
from transcript_messages
where cost_usd is null
group by all
order by model
