import type { InputHTMLAttributes, ReactNode } from "react";
import styles from "@/components/ui/Choice.module.css";

interface ChoiceProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "type"> {
  type: "checkbox" | "radio";
  children: ReactNode;
}

/** A checkbox or radio button with its label beside it. */
export function Choice({ type, children, ...input }: ChoiceProps) {
  return (
    <label className={styles.choice}>
      <input type={type} {...input} />
      <span>{children}</span>
    </label>
  );
}
