-- The first results.jsonl row (by probe, file, then line) at which its probe's envelope costs
-- (total_cost_usd, or the costUSD of every model) add up past the largest DOUBLE: each fits, but
-- the probe's cost, an arm's and the budget's check would read Infinity (json: null, "unknown").
-- Nothing when every probe's fits, which the first step finds without a join or a sort.
with over as (
    select probe from spawns group by probe having isinf(sum(coalesce(cost_usd, 0)))
    union
    select probe from model_usage group by probe having isinf(sum(coalesce(cost_usd, 0)))
),

costs as (
    select s.probe, r.file, r.rec, coalesce(s.cost_usd, 0) as usd,
           coalesce((select sum(coalesce(u.cost_usd, 0)) from model_usage as u where u.probe = s.probe and u.session_id = s.session_id), 0) as models
    from spawns as s
    join records as r on r.probe = s.probe and r.kind = 'results' and (r.json ->> 'session_id') = s.session_id
    where s.probe in (select probe from over)
),

running as (
    select file, rec,
           sum(usd) over w as usd, sum(models) over w as models
    from costs
    window w as (partition by probe order by file, rec rows unbounded preceding)
)

select file, rec
from running
where isinf(usd) or isinf(models)
order by file, rec
limit 1;
