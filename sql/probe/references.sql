-- Notes and pilots that name no spawn and voids that name no registered arm (errors: 'note',
-- 'pilot', 'void', at file and rec), and skill results whose session is not a spawn (a warning:
-- 'skill', per probe, how many and the first).
select 'note' as what, n.file, n.rec, n.session_id as name, null::VARCHAR as probe, null::BIGINT as n from spawn_notes n
where not exists (select 1 from spawns s where s.probe = n.probe and s.session_id = n.session_id)
union all
select 'pilot', r.file, r.rec, p.session_id, null, null from pilot_sessions p
join records r on r.probe = p.probe and r.kind = 'registration' and (r.json ->> 'kind') = 'addendum' and (r.json ->> 'n')::BIGINT = p.addendum
where not exists (select 1 from spawns s where s.probe = p.probe and s.session_id = p.session_id)
union all
select 'void', r.file, r.rec, v.arm, null, null from void_arms v
join records r on r.probe = v.probe and r.kind = 'registration' and (r.json ->> 'kind') = 'addendum' and (r.json ->> 'n')::BIGINT = v.addendum
where not exists (select 1 from registered_arms a where a.probe = v.probe and a.arm = v.arm)
union all
select 'skill', null, min(ordinal), null, probe, count(*) from skill_calls c
where not exists (select 1 from spawns s where s.probe = c.probe and s.session_id = c.session_id)
group by probe
order by what, file, rec, probe
