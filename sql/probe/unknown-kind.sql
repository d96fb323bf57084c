-- The first registration record, by file and line, whose kind is not one of $kinds.
-- params: kinds  the registration kinds (src/load/record-schemas.ts)
select file, rec, json ->> 'kind' as kind from records
where kind = 'registration' and not list_contains($kinds, json ->> 'kind')
order by file, rec limit 1
