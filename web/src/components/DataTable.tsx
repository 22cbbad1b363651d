import type { HTMLAttributes, ReactNode } from 'react';
import { TableWrap } from './TableWrap';

export interface Column<T> {
  /** The column's heading; a string or something read the same way. */
  header: ReactNode;
  cell: (row: T) => ReactNode;
  /** The cell that names the row (a `th scope="row"`). */
  rowHeader?: boolean;
  className?: string;
}

/**
 * A table of rows, one column definition each: headings, a row header for screen readers, and sideways scrolling
 * (TableWrap) when the table is wider than the screen.
 */
export function DataTable<T>({
  label,
  caption,
  rows,
  rowKey,
  columns,
  rowProps,
  className,
}: {
  /** Names the scrolling region. */
  label: string;
  /** A caption for screen readers; visible captions belong in the surrounding heading. */
  caption?: string;
  rows: readonly T[];
  rowKey: (row: T) => string;
  columns: readonly Column<T>[];
  rowProps?: (row: T) => HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, string>;
  className?: string;
}) {
  return (
    <TableWrap label={label}>
      <table className={className ? `table ${className}` : 'table'}>
        {caption ? <caption className="visually-hidden">{caption}</caption> : null}
        <thead>
          <tr>
            {columns.map((column, index) => (
              <th key={index} scope="col" className={column.className}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} {...rowProps?.(row)}>
              {columns.map((column, index) =>
                column.rowHeader ? (
                  <th key={index} scope="row" className={column.className}>
                    {column.cell(row)}
                  </th>
                ) : (
                  <td key={index} className={column.className}>
                    {column.cell(row)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
