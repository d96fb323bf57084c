-- k-res-fails: the trigger of K-RES-NS and K-RES-MAN, "K-RES fails".
--
-- reads:   spawns, markers, registered_arms
-- params:  probe
-- returns: one row
--   fired     BOOLEAN  fewer than K-RES's registered n spawns resolved the staged agent
--   observed  VARCHAR  e.g. "K-RES resolved 3 of 3"

with

resolved as (
    select count(distinct s.session_id) as n
    from spawns as s
    join markers as m on m.probe = s.probe and m.session_id = s.session_id
    where s.probe = $probe and s.arm = 'K-RES' and s.status = 'counted' and s.exit_code = 0
      and m.token = 'OMG-K-AGENT-STAGED-8802'
)

select
    (select n from resolved) < r.n as fired,
    format('K-RES resolved {} of {}', (select n from resolved), r.n) as observed
from registered_arms as r
where r.probe = $probe and r.arm = 'K-RES'
