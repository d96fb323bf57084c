-- registration_parts: each file of a probe's registration, and the first spawn it governs.
--
-- A file that registers an addendum governs the spawns of the arms it registers and the counted
-- spawns of the arms whose pilots it declares; any other registration file (the pre-registration,
-- and an addendum's file that also registers a budget, a conjunct or the probe) governs every
-- spawn. A .sql file named by a check or trigger is governed like the file naming it. An addendum
-- that voids an arm changes the verdict whatever it governs: `voids` says so.
--
-- reads:   registration_records, registered_arms, conjuncts, pilot_sessions, spawns
-- params:  none
-- returns: one row per registration file
--   probe     VARCHAR
--   file      VARCHAR  relative to the probe directory, e.g. registration/addendum-2.jsonl
--   kind      VARCHAR  preregistration | addendum
--   governs   VARCHAR  started_at of the first spawn it governs, as recorded (NULL when none)
--   governs_session VARCHAR  that spawn's session_id (of the least, among spawns that start together)
--   voids     BOOLEAN  it declares an arm void
--   spawns    STRUCT[] {session_id, started_at}: every spawn it governs, by started_at
-- order:   probe, file

with

files as (
    select
        probe,
        file,
        -- Only addendum and arm records: a budget or a conjunct added later rules every spawn.
        bool_or(kind = 'addendum') and bool_and(kind in ('addendum', 'arm')) as is_addendum,
        coalesce(bool_or(kind = 'addendum' and json_array_length(record -> 'void') > 0), false) as voids
    from registration_records
    group by all
),

governed as (
    -- arms an addendum file registers
    select r.probe, r.file, s.started_at, s.session_id
    from registered_arms as r
    join files as f using (probe, file)
    join spawns as s on s.probe = r.probe and s.arm = r.arm and s.status <> 'pilot'
    where f.is_addendum
    union all
    -- counted spawns of the arms whose pilots it declares
    select a.probe, a.file, s.started_at, s.session_id
    from registration_records as a
    join pilot_sessions as p on p.probe = a.probe and p.addendum = (a.record ->> 'n')::BIGINT
    join spawns as ps on ps.probe = p.probe and ps.session_id = p.session_id
    join spawns as s on s.probe = ps.probe and s.arm = ps.arm and s.status = 'counted'
    where a.kind = 'addendum'
    union all
    -- the pre-registration governs every spawn
    select f.probe, f.file, s.started_at, s.session_id
    from files as f
    join spawns as s using (probe)
    where not f.is_addendum
),

each_spawn as (
    -- each spawn once per file that governs it
    select distinct probe, file, started_at, session_id from governed
),

jsonl_parts as (
    select
        f.probe,
        f.file,
        case when f.is_addendum then 'addendum' else 'preregistration' end as kind,
        arg_min(g.started_at, (g.started_at::TIMESTAMPTZ, g.session_id)) as governs,
        arg_min(g.session_id, (g.started_at::TIMESTAMPTZ, g.session_id)) as governs_session,
        f.voids
    from files as f
    left join governed as g using (probe, file)
    group by all
),

sql_files as (
    -- each .sql file a record names: a conjunct's check, an arm's trigger
    select probe, file, "check" as path from conjuncts
    union all
    select probe, file, trigger as path from registered_arms where trigger is not null
),

sql_parts as (
    select
        x.probe,
        'registration/' || x.path as file,
        min(p.kind) as kind,
        arg_min(p.governs, (p.governs::TIMESTAMPTZ, p.governs_session)) as governs,
        arg_min(p.governs_session, (p.governs::TIMESTAMPTZ, p.governs_session)) as governs_session,
        false as voids
    from sql_files as x
    join jsonl_parts as p using (probe, file)
    group by all
),

sql_spawns as (
    -- a .sql file governs the spawns of every file naming it
    select distinct x.probe, 'registration/' || x.path as file, s.started_at, s.session_id
    from sql_files as x
    join each_spawn as s using (probe, file)
),

spawn_lists as (
    select
        probe,
        file,
        list({'session_id': session_id, 'started_at': started_at} order by started_at::TIMESTAMPTZ, session_id) as spawns
    from (
        select probe, file, started_at, session_id from each_spawn
        union all
        select probe, file, started_at, session_id from sql_spawns
    )
    group by all
),

parts as (
    select p.*, coalesce(l.spawns, []) as spawns
    from (select * from jsonl_parts union all select * from sql_parts) as p
    left join spawn_lists as l using (probe, file)
)

select probe, file, kind, governs, governs_session, voids, spawns from parts
order by probe, file
