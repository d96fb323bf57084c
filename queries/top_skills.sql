-- top_skills: the skills the loaded transcripts' Skill and SlashCommand calls named most, with how
-- many sessions named each.
--
-- Needs no probe.
--
-- reads:   transcript_tool_uses
-- params:  none
-- returns: up to 15 rows, one per skill
--   skill     VARCHAR  the name the calls gave
--   calls     BIGINT   calls, a call copied into two sessions' files once
--   sessions  BIGINT   sessions with such a call (sub-agents' in their parent's)
-- order:   calls desc, skill

-- A call copied into another session's file (a resumed session of Claude Code 1.0.x) is one call, by
-- its id; a call without an id counts on its own.
select skill, count(distinct tool_use_id) + count(*) filter (where tool_use_id is null) as calls,
       count(distinct session_id) as sessions
from transcript_tool_uses
where skill is not null
group by skill
order by calls desc, skill
limit 15
