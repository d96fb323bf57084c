-- cost_by_arm: what each arm spent, pilots and void spawns included.
--
-- reads:   spawns, registered_arms
-- params:  none
-- returns: one row per probe and arm that ran
--   probe     VARCHAR
--   arm       VARCHAR
--   spawns    BIGINT
--   cost_usd  DOUBLE   to the micro-dollar; NULL when none of its spawns has an envelope, or one
--                      has an envelope without total_cost_usd (its cost is unknown, not a part)
-- order:   probe, registration order (unregistered arms last, by first seq)

select
    s.probe,
    s.arm,
    count(*) as spawns,
    case when count(*) filter (where s.envelope is not null and s.cost_usd is null) = 0
         then round(sum(s.cost_usd), 6)
    end as cost_usd
from spawns as s
left join registered_arms as r using (probe, arm)
group by s.probe, s.arm, r.ordinal
order by s.probe, r.ordinal nulls last, min(s.seq)
