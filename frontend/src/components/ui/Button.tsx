import clsx from "clsx";
import type { ButtonHTMLAttributes } from "react";
import { Link, type LinkProps } from "react-router";
import styles from "@/components/ui/Button.module.css";

export type ButtonVariant = "primary" | "secondary" | "danger" | "link";

interface Look {
  variant?: ButtonVariant;
  size?: "normal" | "small";
}

function buttonClass({ variant = "primary", size = "normal" }: Look, extra: string | undefined) {
  return clsx(styles.button, styles[variant], size === "small" && styles.small, extra);
}

/** A button: primary (filled accent), secondary (outlined), danger, or link-looking. */
export function Button({
  variant,
  size,
  className,
  type = "button",
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & Look) {
  return <button type={type} className={buttonClass({ variant, size }, className)} {...rest} />;
}

/** A router link that looks like a button (secondary unless told). */
export function ButtonLink({ variant = "secondary", size, className, ...rest }: LinkProps & Look) {
  return <Link className={buttonClass({ variant, size }, className)} {...rest} />;
}
