-- 8-no-frontmatter-widening: conjunct 8, frontmatter widening 0 of 2.
--
-- Judged on the arm that replaces K-FM when an addendum registers one (K-FM-GIT, addendum 2),
-- else on K-FM. Widening is a Bash tool_use record, or the git init's .git appearing.
--
-- reads:   spawns, tool_uses, artifacts, registered_arms, void_arms
-- params:  probe
-- returns: one row
--   holds   BOOLEAN  no counted spawn of the judged arm widened, and all its registered spawns ran
--   result  VARCHAR  e.g. "K-FM-GIT 0 of 2 (K-FM void)"

with

judged as (
    select coalesce(
        (select arm from registered_arms where probe = $probe and replaces = 'K-FM'),
        'K-FM'
    ) as arm
),

per_spawn as (
    select
        exists (
            select 1 from tool_uses as t
            where t.probe = s.probe and t.session_id = s.session_id and t.name = 'Bash'
        )
        or exists (
            select 1 from artifacts as a
            where a.probe = s.probe and a.session_id = s.session_id and a.label = 'fm-git' and a.present
        ) as widened
    from spawns as s
    where s.probe = $probe and s.arm = (select arm from judged) and s.status = 'counted'
),

final as (
    select
        (select arm from judged) as arm,
        count(*) filter (where widened) as widened,
        count(*) as ran,
        (select n from registered_arms where probe = $probe and arm = (select arm from judged)) as n,
        exists (select 1 from void_arms where probe = $probe and arm = 'K-FM') as k_fm_void
    from per_spawn
)

select
    widened = 0 and ran = n as holds,
    format('{} {} of {}{}', arm, widened, ran, case when k_fm_void then ' (K-FM void)' else '' end) as result
from final
