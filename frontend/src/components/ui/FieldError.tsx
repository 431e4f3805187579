import styles from "@/components/ui/FieldError.module.css";

/** What is wrong with one field and how to fix it, beside the field (its `id` is the input's aria-describedby). */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <span id={id} className={styles.error} data-testid="field-error" role="alert">
      {message}
    </span>
  );
}
