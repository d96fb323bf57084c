-- cost_by_arm: what each arm spent, pilots and void spawns included.
--
-- reads:   spawns, tool_uses, transcript_sessions, registered_arms
-- params:  none
-- returns: one row per probe and arm that ran
--   probe     VARCHAR
--   arm       VARCHAR
--   spawns    BIGINT
--   cost_usd  DOUBLE   to the micro-dollar; NULL when none of its spawns has an envelope, or one
--                      that ran gives no total_cost_usd (cost.sql's unpriced: its cost is unknown,
--                      not a part)
-- order:   probe, registration order (unregistered arms last, by first seq)

select
    s.probe,
    s.arm,
    count(*) as spawns,
    case when count(*) filter (where s.cost_usd is null and (s.envelope is not null or s.exit_code not between 1 and 127 or s.exit_code = 124 or c.session_id is not null or t.session_id is not null)) = 0
         then round(sum(s.cost_usd), 6)
    end as cost_usd
from spawns as s
left join (select distinct probe, session_id from tool_uses) as c on c.probe = s.probe and c.session_id = s.session_id
left join (select distinct session_id from transcript_sessions) as t on t.session_id = s.session_id
left join registered_arms as r on r.probe = s.probe and r.arm = s.arm
group by s.probe, s.arm, r.ordinal
order by s.probe, r.ordinal nulls last, min(s.seq)
