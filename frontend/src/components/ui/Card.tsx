import clsx from "clsx";
import type { HTMLAttributes } from "react";
import styles from "@/components/ui/Card.module.css";

/** The card surface's class, for elements that need their own tag or a ref. */
export const cardClass = styles.card;

interface CardProps extends HTMLAttributes<HTMLElement> {
  as?: "div" | "section" | "article" | "li" | "form";
}

/** A bordered surface with the house padding and shadow. */
export function Card({ as: Tag = "div", className, ...rest }: CardProps) {
  return <Tag className={clsx(styles.card, className)} {...rest} />;
}
