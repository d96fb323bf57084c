-- spawns_over_envelope: the spawns whose transcript's priced responses cost more than their envelope's
-- total_cost_usd by more than 1% (agree --usage's tolerance). total_cost_usd counts every response
-- the transcript shows and Claude Code's own calls besides, so such a total is too small (forged, or
-- cut): what the spawn spent is at least its transcript's cost. cost and verdict warn of each; the
-- budget (budget.sql) counts it at that cost.
--
-- reads:   spawns, transcript_messages
-- params:  none
-- returns: one row per such spawn
--   probe                VARCHAR
--   seq                  BIGINT
--   arm                  VARCHAR
--   session_id           VARCHAR
--   envelope_cost_usd    DOUBLE   its envelope's total_cost_usd
--   transcript_cost_usd  DECIMAL  what its transcript's priced responses cost (a model with no price left out)
-- order:   probe, seq

select s.probe, s.seq, s.arm, s.session_id, s.cost_usd as envelope_cost_usd, m.cost as transcript_cost_usd
from spawns as s
join (select session_id, sum(cost_usd) as cost from transcript_messages group by session_id) as m using (session_id)
where s.cost_usd is not null and m.cost::DOUBLE > s.cost_usd * 1.01
order by s.probe, s.seq
