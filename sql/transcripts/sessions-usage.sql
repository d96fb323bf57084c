-- The response columns of transcript_sessions, from transcript_messages (messages.sql).
update transcript_sessions as t
set cwd = m.cwd,
    git_branch = m.git_branch,
    last_timestamp = m.last_timestamp,
    duration = m.last_timestamp - t.first_timestamp,
    responses = m.responses,
    input_tokens = m.input_tokens,
    output_tokens = m.output_tokens,
    cache_creation_input_tokens = m.cache_creation_input_tokens,
    cache_read_input_tokens = m.cache_read_input_tokens,
    cost_usd = m.cost_usd
from (
    select session_id,
           arg_min(cwd, first_timestamp) filter (where cwd is not null) as cwd,
           arg_min(git_branch, first_timestamp) filter (where git_branch is not null) as git_branch,
           max(last_timestamp) as last_timestamp,
           count(*) as responses,
           coalesce(sum(input_tokens), 0)::BIGINT as input_tokens,
           coalesce(sum(output_tokens), 0)::BIGINT as output_tokens,
           coalesce(sum(cache_creation_input_tokens), 0)::BIGINT as cache_creation_input_tokens,
           coalesce(sum(cache_read_input_tokens), 0)::BIGINT as cache_read_input_tokens,
           -- A session with a response of no price has no cost: a sum without it would pass for one.
           case when bool_and(cost_usd is not null) then sum(cost_usd)::DECIMAL(38, 9) end as cost_usd
    from transcript_messages
    group by session_id
) as m
where t.session_id = m.session_id;

update transcript_sessions
set responses = 0, input_tokens = 0, output_tokens = 0, cache_creation_input_tokens = 0, cache_read_input_tokens = 0,
    cost_usd = 0
where responses is null;
