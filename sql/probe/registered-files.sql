-- The files a probe's registration names as a conjunct's check or an arm's trigger, as written
-- (relative to registration/): what a load that will evaluate them parses first, for the tables
-- they read (load/tables-named.ts). A line that is not a record is the probe loader's to report.
-- params: files  the registration's .jsonl files, absolute paths
select distinct path
from (
    select case json ->> 'kind' when 'conjunct' then json ->> 'check' when 'arm' then json ->> 'trigger' end as path
    from read_ndjson_objects($files, ignore_errors = true, maximum_object_size = 268435456)
)
where path is not null
order by path;
