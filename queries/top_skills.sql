-- top_skills: the skills the loaded transcripts' Skill and SlashCommand calls named most, with how
-- many sessions named each.
--
-- Needs no probe.
--
-- reads:   transcript_tool_uses
-- params:  none
-- returns: up to 15 rows, one per skill
--   skill     VARCHAR  the name the calls gave
--   calls     BIGINT
--   sessions  BIGINT   sessions with such a call (sub-agents' in their parent's)
-- order:   calls desc, skill

select skill, count(*) as calls, count(distinct session_id) as sessions
from transcript_tool_uses
where skill is not null
group by skill
order by calls desc, skill
limit 15
