package com.example.identity;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Each table has one owning package, and only that package names it (issue 41): a change to a table's columns is
 * then a change in one package. The tables are those the migrations of {@code db/migration} and {@code db/vendor}
 * create (and do not drop); their owners are {@code architecture/table-owners.txt}, a {@code table package} a line,
 * with the importer's exception ({@code migration} writes in bulk, docs/architecture.md) said there too. A package
 * names a table when one of its main sources has it in SQL: a string literal (those joined by {@code +} read as one)
 * that reads as SQL and holds the table's name as a word, a JPQL string naming the entity mapped to it
 * ({@code @Table}), an entity mapped to it, or a Spring Data repository of that entity (declared or used).
 * Fails with "table X named in package Y, owned by Z", and for a table without an owner.
 *
 * <p>A view ({@code create view}) has an owner too, the package whose table it projects; its line says
 * {@code published} when the owner offers it to every package to read in the same statement as their own rows
 * (the two hot paths, docs/architecture.md): others may then name it, in statements that only select.
 */
class TableOwnershipTest {

    static final Path MAIN = Path.of("src/main/java/com/example/identity");
    static final Path MIGRATIONS = Path.of("src/main/resources/db");
    static final String OWNERS = "/architecture/table-owners.txt";

    private static final Pattern CREATE = Pattern.compile(
            "(?i)create\\s+(?:unlogged\\s+)?table\\s+(?:if\\s+not\\s+exists\\s+)?\"?(\\w+)");
    private static final Pattern VIEW = Pattern.compile("(?i)create\\s+(?:or\\s+replace\\s+)?view\\s+\"?(\\w+)");
    private static final Pattern DROP_VIEW = Pattern.compile("(?i)drop\\s+view\\s+(?:if\\s+exists\\s+)?\"?(\\w+)");
    private static final Pattern DROP = Pattern.compile("(?i)drop\\s+table\\s+(?:if\\s+exists\\s+)?\"?(\\w+)");
    private static final Pattern SQL = Pattern.compile(
            "(?i)(?<![\\w./-])(select|insert|update|delete|from|join|into|table|where|merge)(?![\\w/-])");
    private static final Pattern ENTITY_TABLE = Pattern.compile(
            "@Table\\s*\\(\\s*name\\s*=\\s*\"(\\w+)\"[^)]*\\)[\\s\\S]*?\\bclass\\s+(\\w+)");
    private static final Pattern REPOSITORY = Pattern.compile(
            "interface\\s+(\\w+)\\s+extends\\s+\\w*Repository\\s*<\\s*(\\w+)\\s*,");

    /** Each table the migrations leave, lower-case. */
    static Set<String> tables;
    /** Each view the migrations leave, lower-case (also in {@link #tables}: a view is named as a table is). */
    static Set<String> views;
    /** The views whose owners publish them for every package to read. */
    static Set<String> published;
    /** Table → owning package (the first under the base, {@code oauth} for {@code oauth/store}). */
    static Map<String, String> owners;
    static Map<String, Set<String>> exceptions;
    /** Each source → its package, its code without comments and its string literals as read. */
    static Map<Path, Source> sources;

    record Source(String pkg, String code, List<String> literals) {
    }

    @BeforeAll
    static void read() throws IOException {
        tables = new TreeSet<>();
        views = new TreeSet<>();
        try (Stream<Path> files = Files.walk(MIGRATIONS)) {
            for (Path file : files.filter(p -> p.toString().endsWith(".sql")).sorted().toList()) {
                String sql = Files.readString(file, StandardCharsets.UTF_8);
                CREATE.matcher(sql).results().forEach(m -> tables.add(m.group(1).toLowerCase(Locale.ROOT)));
                VIEW.matcher(sql).results().forEach(m -> views.add(m.group(1).toLowerCase(Locale.ROOT)));
            }
        }
        try (Stream<Path> files = Files.walk(MIGRATIONS)) {
            for (Path file : files.filter(p -> p.toString().endsWith(".sql")).toList()) {
                String sql = Files.readString(file, StandardCharsets.UTF_8);
                DROP.matcher(sql).results().forEach(m -> tables.remove(m.group(1).toLowerCase(Locale.ROOT)));
                DROP_VIEW.matcher(sql).results().forEach(m -> views.remove(m.group(1).toLowerCase(Locale.ROOT)));
            }
        }
        tables.addAll(views);
        published = new TreeSet<>();
        owners = new TreeMap<>();
        exceptions = new TreeMap<>();
        try (var in = TableOwnershipTest.class.getResourceAsStream(OWNERS)) {
            assertThat(in).as(OWNERS).isNotNull();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                String[] words = line.strip().split("\\s+");
                if (words[0].isEmpty() || words[0].startsWith("#")) {
                    continue;
                }
                if (words[0].equals("except")) { // except <package> <table>...: who else may name those tables
                    exceptions.put(words[1], new TreeSet<>(List.of(words).subList(2, words.length)));
                }
                else {
                    assertThat(words.length == 2 || words.length == 3 && words[2].equals("published"))
                            .as("`table package` or `view package published`: " + line).isTrue();
                    assertThat(owners.put(words[0], words[1])).as("one owner for " + words[0]).isNull();
                    if (words.length == 3) {
                        published.add(words[0]);
                    }
                }
            }
        }
        sources = new TreeMap<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            for (Path file : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                // the first package under the base, as ArchitectureTest counts them: oauth/ for oauth/store/
                Path dir = MAIN.relativize(file).getParent();
                String pkg = dir == null ? "(root)" : dir.getName(0).toString();
                sources.put(file, read(pkg, Files.readString(file, StandardCharsets.UTF_8)));
            }
        }
    }

    @Test
    void everyTableHasAnOwnerThatIsAPackage() {
        assertThat(new TreeSet<>(tables)).as("tables without a line in " + OWNERS).isSubsetOf(owners.keySet());
        assertThat(owners.keySet()).as("lines of " + OWNERS + " for no table the migrations leave").isSubsetOf(tables);
        Set<String> packages = new TreeSet<>();
        sources.values().forEach(s -> packages.add(s.pkg()));
        assertThat(packages).as("owners and exceptions of " + OWNERS).containsAll(owners.values())
                .containsAll(exceptions.keySet());
    }

    @Test
    void onlyViewsArePublishedAndOthersOnlyReadThem() {
        assertThat(published).as("published in " + OWNERS + " but not a view of the migrations").isSubsetOf(views);
        List<String> writes = new ArrayList<>();
        for (Source source : sources.values()) {
            for (String literal : source.literals()) {
                String lower = literal.toLowerCase(Locale.ROOT);
                published.stream()
                        .filter(view -> !source.pkg().equals(owners.get(view)))
                        .filter(view -> SQL.matcher(literal).find() && word(view).matcher(lower).find())
                        .filter(view -> !lower.strip().startsWith("select "))
                        .forEach(view -> writes.add("view " + view + " in a statement other than a select in package "
                                + source.pkg() + ": " + literal));
            }
        }
        assertThat(writes).as("published views are read only by others").isEmpty();
    }

    @Test
    void onlyItsOwnerNamesATable() {
        Map<String, Set<String>> named = named();
        List<String> wrong = new ArrayList<>();
        named.forEach((table, packages) -> packages.stream()
                .filter(pkg -> !published.contains(table))
                .filter(pkg -> !pkg.equals(owners.get(table)))
                .filter(pkg -> !exceptions.getOrDefault(pkg, Set.of()).contains(table))
                .forEach(pkg -> wrong.add("table " + table + " named in package " + pkg + ", owned by " + owners.get(table))));
        assertThat(wrong).as("tables named outside their owner (" + OWNERS + ")").isEmpty();
        List<String> unused = new ArrayList<>();
        exceptions.forEach((pkg, allowed) -> allowed.stream()
                .filter(table -> !named.getOrDefault(table, Set.of()).contains(pkg))
                .forEach(table -> unused.add("except " + pkg + " " + table)));
        assertThat(unused).as("exceptions of " + OWNERS + " no longer used: take them off").isEmpty();
    }

    /** The test's reading itself: SQL in literals, JPQL, entities and repositories each count. */
    @Test
    void theReadingFindsEachWayOfNamingATable() {
        Source sample = read("x", """
                // select * from users
                @Entity @Table(name = "users") public class UserAccount { }
                interface UserAccountRepository extends JpaRepository<UserAccount, Long> { }
                class A { String a = "select id " + "from oauth_clients where id = ?"; String b = "dashboard/sanctions";
                  String c = "only applications accept guests"; String d = "select u from UserAccount u"; }
                """);
        assertThat(sample.literals()).contains("select id from oauth_clients where id = ?", "select u from UserAccount u")
                .noneMatch(l -> l.contains("*"));
        assertThat(sqlNames(sample, Set.of("users", "oauth_clients", "sanctions", "guests")))
                .containsExactly("oauth_clients");
    }

    /** Table → the packages that name it. */
    static Map<String, Set<String>> named() {
        Map<String, String> entities = new TreeMap<>(); // entity class → table
        Map<String, String> repositories = new TreeMap<>(); // repository → table
        Map<String, Set<String>> named = new TreeMap<>();
        for (Source source : sources.values()) {
            Matcher entity = ENTITY_TABLE.matcher(source.code());
            while (entity.find()) {
                String table = entity.group(1).toLowerCase(Locale.ROOT);
                entities.put(entity.group(2), table);
                named.computeIfAbsent(table, t -> new TreeSet<>()).add(source.pkg());
            }
        }
        for (Source source : sources.values()) {
            Matcher repository = REPOSITORY.matcher(source.code());
            while (repository.find()) {
                String table = entities.get(repository.group(2));
                if (table != null) {
                    repositories.put(repository.group(1), table);
                }
            }
        }
        for (Source source : sources.values()) {
            for (String table : sqlNames(source, tables)) {
                named.computeIfAbsent(table, t -> new TreeSet<>()).add(source.pkg());
            }
            for (String literal : source.literals()) {
                if (SQL.matcher(literal).find()) {
                    entities.forEach((entity, table) -> {
                        if (word(entity).matcher(literal).find()) {
                            named.computeIfAbsent(table, t -> new TreeSet<>()).add(source.pkg());
                        }
                    });
                }
            }
            repositories.forEach((repository, table) -> {
                if (word(repository).matcher(source.code()).find()) {
                    named.computeIfAbsent(table, t -> new TreeSet<>()).add(source.pkg());
                }
            });
        }
        return named;
    }

    static Set<String> sqlNames(Source source, Set<String> tables) {
        Set<String> found = new TreeSet<>();
        for (String literal : source.literals()) {
            if (SQL.matcher(literal).find()) {
                String lower = literal.toLowerCase(Locale.ROOT);
                tables.stream().filter(table -> word(table).matcher(lower).find()).forEach(found::add);
            }
        }
        return found;
    }

    static Pattern word(String name) {
        return Pattern.compile("(?<![\\w./-])" + Pattern.quote(name) + "(?![\\w/-])");
    }

    /**
     * A source read as Java: its code without comments (string literals kept), and its string and text-block
     * literals, those joined by {@code +} alone read as one.
     */
    static Source read(String pkg, String text) {
        StringBuilder code = new StringBuilder();
        List<String> literals = new ArrayList<>();
        StringBuilder pending = null; // the literal being joined, until something other than "+" follows
        int i = 0;
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            if (text.startsWith("//", i)) {
                int end = text.indexOf('\n', i);
                i = end < 0 ? n : end;
                continue;
            }
            if (text.startsWith("/*", i)) {
                int end = text.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
                continue;
            }
            if (text.startsWith("\"\"\"", i)) {
                int end = text.indexOf("\"\"\"", i + 3);
                String body = text.substring(i + 3, end < 0 ? n : end);
                code.append("\"\"\"").append(body).append("\"\"\"");
                pending = join(pending, body.replaceAll("\\s+", " ").strip());
                i = end < 0 ? n : end + 3;
                continue;
            }
            if (c == '"' || c == '\'') {
                int j = i + 1;
                StringBuilder value = new StringBuilder();
                while (j < n && text.charAt(j) != c) {
                    if (text.charAt(j) == '\\' && j + 1 < n) {
                        value.append(text.charAt(j + 1));
                        j += 2;
                        continue;
                    }
                    value.append(text.charAt(j++));
                }
                code.append(text, i, Math.min(j + 1, n));
                if (c == '"') {
                    pending = join(pending, value.toString());
                }
                i = j + 1;
                continue;
            }
            if (pending != null && !Character.isWhitespace(c) && c != '+') {
                literals.add(pending.toString());
                pending = null;
            }
            code.append(c);
            i++;
        }
        if (pending != null) {
            literals.add(pending.toString());
        }
        return new Source(pkg, code.toString(), literals);
    }

    private static StringBuilder join(StringBuilder pending, String value) {
        return pending == null ? new StringBuilder(value) : pending.append(value);
    }
}
