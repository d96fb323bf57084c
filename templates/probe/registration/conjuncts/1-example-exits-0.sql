-- 1-example-exits-0: conjunct 1, every registered EXAMPLE spawn exited 0.
--
-- reads:   spawns, registered_arms
-- params:  probe
-- returns: one row
--   holds   BOOLEAN  as many counted EXAMPLE spawns exited 0 as the arm registered
--   result  VARCHAR  what was observed, e.g. "1 of 1 exited 0"

with

registered as (
    select n from registered_arms where probe = $probe and arm = 'EXAMPLE'
),

ran as (
    select count(*) filter (where exit_code = 0) as exited_ok
    from spawns
    where probe = $probe and arm = 'EXAMPLE' and status = 'counted'
)

select
    exited_ok = (select n from registered) as holds,
    format('{} of {} exited 0', exited_ok, (select n from registered)) as result
from ran
