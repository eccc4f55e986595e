CREATE TABLE "course_search" (
	"course_id" integer PRIMARY KEY NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"student_count" integer DEFAULT 0 NOT NULL,
	"head" "tsvector" DEFAULT ''::tsvector NOT NULL,
	"doc" "tsvector" DEFAULT ''::tsvector NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"lessons" text[] DEFAULT '{}'::text[] NOT NULL,
	"stale" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "course_terms" (
	"term" text COLLATE "C" NOT NULL,
	"tier" smallint NOT NULL,
	"student_count" integer NOT NULL,
	"course_id" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "course_search" ADD CONSTRAINT "course_search_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_terms" ADD CONSTRAINT "course_terms_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "course_search_doc_idx" ON "course_search" USING gin ("doc");--> statement-breakpoint
CREATE INDEX "course_search_stale_idx" ON "course_search" USING btree ("course_id") WHERE "course_search"."stale";--> statement-breakpoint
CREATE INDEX "course_terms_rank_idx" ON "course_terms" USING btree ("term","tier","student_count" DESC NULLS LAST,"course_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "course_terms_course_idx" ON "course_terms" USING btree ("course_id");--> statement-breakpoint
-- Search documents stay current: whatever writes a course, its lessons, its teacher or its categories (the admin
-- API, a seed, plain SQL) marks the courses whose document shows it as stale; the app rebuilds stale documents
-- (server/modules/catalogue/search-index.ts) right after its own writes and in a sweep every few seconds.
CREATE FUNCTION course_search_mark(ids integer[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO course_search (course_id, published, student_count)
  SELECT c.id, c.status = 'published', c.student_count FROM courses c WHERE c.id = ANY(ids)
  ON CONFLICT (course_id) DO UPDATE SET stale = true
$$;--> statement-breakpoint
CREATE FUNCTION course_search_course_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM course_search_mark(ARRAY[NEW.id]);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER course_search_course_insert AFTER INSERT ON courses
  FOR EACH ROW EXECUTE FUNCTION course_search_course_changed();--> statement-breakpoint
CREATE TRIGGER course_search_course_update AFTER UPDATE OF title, tags, teacher_id, category_id ON courses
  FOR EACH ROW WHEN (OLD.title IS DISTINCT FROM NEW.title OR OLD.tags IS DISTINCT FROM NEW.tags
    OR OLD.teacher_id IS DISTINCT FROM NEW.teacher_id OR OLD.category_id IS DISTINCT FROM NEW.category_id)
  EXECUTE FUNCTION course_search_course_changed();--> statement-breakpoint
-- What a search filters and orders by before it reads any course row: copied as it changes (no rebuild).
-- Publishing or hiding also rebuilds the course's terms (course_terms holds published courses only).
CREATE FUNCTION course_search_course_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE course_search SET published = NEW.status = 'published', student_count = NEW.student_count,
    stale = stale OR (OLD.status IS DISTINCT FROM NEW.status)
  WHERE course_id = NEW.id;
  IF NEW.status <> 'published' THEN
    DELETE FROM course_terms WHERE course_id = NEW.id;
  ELSIF OLD.student_count IS DISTINCT FROM NEW.student_count THEN
    UPDATE course_terms SET student_count = NEW.student_count WHERE course_id = NEW.id;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER course_search_course_counts AFTER UPDATE OF status, student_count ON courses
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.student_count IS DISTINCT FROM NEW.student_count)
  EXECUTE FUNCTION course_search_course_counts();--> statement-breakpoint
-- Chapters and videos: the course they were in and the one they are in now.
CREATE FUNCTION course_search_lesson_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM course_search_mark(ARRAY[NEW.course_id]);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM course_search_mark(ARRAY[OLD.course_id]) WHERE EXISTS (SELECT 1 FROM courses WHERE id = OLD.course_id);
  ELSIF OLD.title IS DISTINCT FROM NEW.title OR OLD.course_id IS DISTINCT FROM NEW.course_id THEN
    PERFORM course_search_mark(ARRAY[OLD.course_id, NEW.course_id]);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER course_search_chapter AFTER INSERT OR DELETE OR UPDATE OF title, course_id ON chapters
  FOR EACH ROW EXECUTE FUNCTION course_search_lesson_changed();--> statement-breakpoint
CREATE TRIGGER course_search_video AFTER INSERT OR DELETE OR UPDATE OF title, course_id ON videos
  FOR EACH ROW EXECUTE FUNCTION course_search_lesson_changed();--> statement-breakpoint
CREATE FUNCTION course_search_teacher_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM course_search_mark(ARRAY(SELECT id FROM courses WHERE teacher_id = NEW.id));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER course_search_teacher AFTER UPDATE OF name ON teachers
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION course_search_teacher_changed();--> statement-breakpoint
-- A category's name shows in its courses' documents and in those of its sub-categories' courses.
CREATE FUNCTION course_search_category_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM course_search_mark(ARRAY(
    SELECT c.id FROM courses c WHERE c.category_id = NEW.id
      OR c.category_id IN (SELECT k.id FROM categories k WHERE k.parent_id = NEW.id)));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER course_search_category AFTER UPDATE OF name, parent_id ON categories
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.parent_id IS DISTINCT FROM NEW.parent_id)
  EXECUTE FUNCTION course_search_category_changed();--> statement-breakpoint
-- Courses that exist before this migration get a stale document, built by the app's first sweep.
INSERT INTO course_search (course_id, published, student_count)
  SELECT id, status = 'published', student_count FROM courses;
