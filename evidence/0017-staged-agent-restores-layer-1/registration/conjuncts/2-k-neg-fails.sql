-- 2-k-neg-fails: conjunct 2, K-NEG fails (no agents/ in the plugin dir, so --agent cannot resolve).
--
-- reads:   spawns
-- params:  probe
-- returns: one row
--   holds   BOOLEAN  K-NEG ran and every counted spawn exited non-zero
--   result  VARCHAR  exit code and the CLI's complaint, e.g. "exit 1, --agent … not found"

with

k_neg as (
    select
        seq,
        exit_code,
        case
            when stderr like '--agent %not found%' then '--agent … not found'
            when stderr is null or trim(stderr) = '' then 'no stderr'
            else split_part(trim(stderr), chr(10), 1)
        end as complaint
    from spawns
    where probe = $probe and arm = 'K-NEG' and status = 'counted'
)

select
    count(*) > 0 and count(*) filter (where exit_code = 0) = 0 as holds,
    coalesce(string_agg(format('exit {}, {}', exit_code, complaint), '; ' order by seq), 'not run') as result
from k_neg
