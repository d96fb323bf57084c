-- Notes and pilots that name no spawn, and voids and replacements that name no registered arm
-- (errors: 'note', 'pilot', 'void', 'replaces', at file and rec); and skill results that do not pair the Skill calls of the
-- spawns' tool_use records one to one (errors, at file and rec): 'skill-call', a row whose call is
-- no Skill or SlashCommand call of its session; 'skill-unnamed', a row of a call that records no
-- skill; 'skill-name', a row whose skill is not the one its call records; 'skill-arm', a row whose
-- arm is not its spawn's; 'skill-missing', a call naming a skill, of a probe that has
-- skill_results.jsonl, with no row there, and 'skill-file', such a call of a probe that has none
-- (name = the call's id; a call that names none has no row, as extract writes none). The verdict
-- counts these rows: one invented, altered or left out, or the file deleted, would change what a
-- conjunct sees.
select 'note' as what, r.file, n.rec, n.session_id as name, null::VARCHAR as probe, null::BIGINT as n from spawn_notes n
join records r on r.probe = n.probe and r.kind = 'notes' and r.rec = n.rec
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
select 'replaces', r.file, r.rec, a.replaces, null, null from registered_arms a
join records r on r.probe = a.probe and r.kind = 'registration' and r.rel = a.file and r.rec = a.rec
where a.replaces is not null and not exists (select 1 from registered_arms b where b.probe = a.probe and b.arm = a.replaces)
union all
-- From skill_calls and tool_uses, typed once; the record's own arm, not skill_calls' (which falls back to the spawn's).
select what, file, ordinal, case when what in ('skill-call', 'skill-unnamed') then tool_use_id when what = 'skill-name' then recorded else arm end, session_id, null
from (
    select case when t.tool_use_id is null then 'skill-call'
                -- A call that names no skill has no row (extract writes none): one would claim its skill.
                when t.skill is null then 'skill-unnamed'
                when t.skill <> c.skill then 'skill-name'
                when (c.record ->> 'arm') <> s.arm then 'skill-arm' end as what,
           r.file, c.ordinal, c.tool_use_id, t.skill as recorded, s.arm, c.session_id
    from skill_calls c
    left join tool_uses t on t.probe = c.probe and t.session_id = c.session_id
        and t.tool_use_id = c.tool_use_id and t.name in ('Skill', 'SlashCommand')
    left join spawns s on s.probe = c.probe and s.session_id = c.session_id
    join records r on r.probe = c.probe and r.kind = 'skill_results' and r.rec = c.ordinal
)
where what is not null
union all
select case when exists (select 1 from source_files f where f.probe = t.probe and f.kind = 'skill_results')
            then 'skill-missing' else 'skill-file' end, r.file, r.rec, t.tool_use_id, t.session_id, null
from tool_uses t
join records r on r.probe = t.probe and r.kind = 'tool_use' and r.file_session = t.session_id and r.rec = t.ordinal
where t.name in ('Skill', 'SlashCommand') and t.skill is not null
  and not exists (select 1 from skill_calls c where c.probe = t.probe and c.session_id = t.session_id and c.tool_use_id = t.tool_use_id)
order by what, file, rec, probe
