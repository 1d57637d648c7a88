SELECT name FROM singer WHERE age > 20
SELECT name FROM singer WHERE age > 29
SELECT name FROM singer WHERE age > 100
SELECT nosuch FROM singer
SELECT FROM WHERE
SELECT name FROM singer WHERE YEAR(born) = 1990
DELETE FROM singer
SELECT name FROM singer WHERE singer_id IN (SELECT singer_id FROM concert WHERE year = 2014)
SELECT count(*) FROM singer WHERE country = 'Spain'
