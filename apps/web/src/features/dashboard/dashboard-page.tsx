import { useCallback, useMemo, useState } from 'react';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Dropdown from 'antd/es/dropdown';
import Space from 'antd/es/space';
import EditOutlined from '@ant-design/icons/EditOutlined';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LoadingSpin } from '../../components';
import { hasPermission, type Page } from '@solar/shared';
import { usePreferences } from '../../lib/preferences-store';
import { useSession } from '../../lib/session-store';
import { plantsOverviewQueryOptions, useLiveOverview } from '../plants';
import { useCatalogPlants } from '../telemetry';
import { useSavedDashboard } from './api/get-dashboard';
import { useSaveDashboard } from './api/save-dashboard';
import { DashboardGrid } from './components/dashboard-grid';
import { WidgetFrame, type FrameControls } from './components/widget-frame';
import { WidgetSettingsDialog } from './components/widget-settings';
import { defaultDashboard } from './model/default-layout';
import { addToLayouts, removeFromLayouts } from './model/grid';
import { nextWidgetId, readStoredDashboard, toStoredDashboard, type Dashboard } from './model/stored-layout';
import { defaultSettings, widgetAllowed, WIDGET_TYPES, type WidgetType } from './model/widgets';
import { WIDGET_COMPONENTS } from './widgets/registry';
import './dashboard.css';

/** Widgets whose data is the plants overview: the page keeps that one query live for all of them. */
const OVERVIEW_WIDGETS = new Set<WidgetType>(['fleet_kpis', 'plant_status', 'mini_map', 'yield_ranking']);

/** What the page found when it loaded the saved layout, for the notice above the grid. */
type LoadNotice = { kind: 'dropped'; types: string[] } | { kind: 'unreadable' } | null;

/** The page's view permission check (the session's pairs; the admin holds every one). */
function useCanView(): (page: Page) => boolean {
  const permissions = useSession((s) => s.user?.permissions);
  return useCallback((page: Page) => hasPermission(permissions ?? [], page, 'view'), [permissions]);
}

/**
 * pages.dashboard: the user's own grid of widgets. The saved layout (GET users/dashboard) is shown, or
 * a default built from the user's plants and permissions; in edit mode widgets are added, removed,
 * dragged, resized and set up, and Save stores the layout (POST users/dashboard).
 */
export default function DashboardPage() {
  const { t } = useTranslation();
  const saved = useSavedDashboard();
  const plants = useCatalogPlants();
  const canView = useCanView();

  if (saved.isError || plants.isError)
    return (
      <Alert
        type="error"
        showIcon
        data-testid="dashboard-error"
        title={t('dashboard.loadError')}
        action={
          <Button
            onClick={() => {
              void saved.refetch();
              void plants.refetch();
            }}
          >
            {t('plantView.common.retry')}
          </Button>
        }
      />
    );
  if (saved.isLoading || plants.isLoading || !plants.data)
    return (
      <div className="dashboard-loading">
        <LoadingSpin label={t('plantView.common.loading')} />
      </div>
    );
  return <Board stored={saved.data} plantIds={plants.data.map((p) => p.id)} canView={canView} />;
}

interface BoardProps {
  stored: unknown;
  plantIds: number[];
  canView: (page: Page) => boolean;
}

function Board({ stored, plantIds, canView }: BoardProps) {
  const { t } = useTranslation();
  const dark = usePreferences((s) => s.theme) === 'dark';
  const allowed = useCallback((type: WidgetType) => widgetAllowed(type, canView), [canView]);
  const makeDefault = useCallback(() => defaultDashboard(plantIds, allowed), [plantIds, allowed]);
  const [initial] = useState(() => {
    const read = readStoredDashboard(stored);
    if (read.kind === 'dashboard')
      return {
        dashboard: read.dashboard,
        notice: read.dropped.length > 0 ? ({ kind: 'dropped', types: read.dropped } as const) : null,
      };
    return {
      dashboard: makeDefault(),
      notice: read.kind === 'unreadable' ? ({ kind: 'unreadable' } as const) : null,
    };
  });
  const [dashboard, setDashboard] = useState<Dashboard>(initial.dashboard);
  const [notice, setNotice] = useState<LoadNotice>(initial.notice);
  const [before, setBefore] = useState<Dashboard | null>(null);
  const [settingsOf, setSettingsOf] = useState<string | null>(null);
  const save = useSaveDashboard();
  const editing = before !== null;

  // One live overview for every widget that shows it.
  const needsOverview =
    dashboard.widgets.some((w) => OVERVIEW_WIDGETS.has(w.type)) &&
    (['plant', 'map', 'single_line'] as const).some(canView);
  const overview = useQuery({ ...plantsOverviewQueryOptions(), enabled: needsOverview });
  useLiveOverview(useMemo(() => (overview.data ?? []).map((p) => p.plant_id), [overview.data]));

  const addable = WIDGET_TYPES.filter(allowed);
  const add = (type: WidgetType) =>
    setDashboard((d) => {
      const id = nextWidgetId(d.widgets);
      return {
        widgets: [...d.widgets, { id, type, settings: defaultSettings(type, plantIds[0] ?? null) }],
        layouts: addToLayouts(d.layouts, id, type),
      };
    });
  const remove = (id: string) =>
    setDashboard((d) => ({
      widgets: d.widgets.filter((w) => w.id !== id),
      layouts: removeFromLayouts(d.layouts, id),
    }));
  const onSave = () =>
    save.mutate(toStoredDashboard(dashboard), {
      onSuccess: () => {
        setBefore(null);
        setNotice(null);
      },
    });
  const editingWidget = dashboard.widgets.find((w) => w.id === settingsOf);

  return (
    <div className="dashboard-page" data-testid="dashboard-page" data-editing={editing}>
      <Space wrap className="dashboard-toolbar">
        {editing ? (
          <>
            <Dropdown
              trigger={['click']}
              menu={{
                items: addable.map((type) => ({
                  key: type,
                  label: <span data-testid={`add-widget-${type}`}>{t(`dashboard.widget.${type}`)}</span>,
                })),
                onClick: ({ key }) => add(key as WidgetType),
              }}
            >
              <Button icon={<PlusOutlined />} data-testid="dashboard-add">
                {t('dashboard.add')}
              </Button>
            </Dropdown>
            <Button onClick={() => setDashboard(makeDefault())} data-testid="dashboard-reset">
              {t('dashboard.reset')}
            </Button>
            <Button
              onClick={() => {
                setDashboard(before);
                setBefore(null);
              }}
              data-testid="dashboard-cancel"
            >
              {t('dashboard.cancel')}
            </Button>
            <Button type="primary" loading={save.isPending} onClick={onSave} data-testid="dashboard-save">
              {t('dashboard.save')}
            </Button>
          </>
        ) : (
          <Button icon={<EditOutlined />} onClick={() => setBefore(dashboard)} data-testid="dashboard-edit">
            {t('dashboard.edit')}
          </Button>
        )}
      </Space>
      {notice && (
        <Alert
          type="warning"
          showIcon
          closable={{ 'aria-label': t('dashboard.notice.close') }}
          onClose={() => setNotice(null)}
          className="dashboard-notice"
          data-testid="dashboard-notice"
          data-kind={notice.kind}
          title={
            notice.kind === 'unreadable'
              ? t('dashboard.notice.unreadable')
              : t('dashboard.notice.dropped', { count: notice.types.length, types: notice.types.join(', ') })
          }
        />
      )}
      {dashboard.widgets.length === 0 ? (
        <Alert type="info" showIcon title={t('dashboard.emptyBoard')} data-testid="dashboard-empty" />
      ) : (
        <DashboardGrid
          widgets={dashboard.widgets}
          layouts={dashboard.layouts}
          editing={editing}
          onLayouts={(layouts) => setDashboard((d) => ({ ...d, layouts }))}
          render={(widget, bodyHeightPx) => {
            const frame: FrameControls = {
              editing,
              onSettings: () => setSettingsOf(widget.id),
              onRemove: () => remove(widget.id),
            };
            if (!allowed(widget.type))
              return (
                <WidgetFrame frame={frame} title={t(`dashboard.widget.${widget.type}`)}>
                  <Alert
                    type="info"
                    showIcon
                    title={t('dashboard.state.forbidden')}
                    data-testid="widget-forbidden"
                  />
                </WidgetFrame>
              );
            const Component = WIDGET_COMPONENTS[widget.type];
            return <Component widget={widget} frame={frame} bodyHeightPx={bodyHeightPx} dark={dark} />;
          }}
        />
      )}
      {editingWidget && (
        <WidgetSettingsDialog
          key={editingWidget.id}
          widget={editingWidget}
          onClose={() => setSettingsOf(null)}
          onSave={(settings) => {
            setDashboard((d) => ({
              ...d,
              widgets: d.widgets.map((w) => (w.id === editingWidget.id ? { ...w, settings } : w)),
            }));
            setSettingsOf(null);
          }}
        />
      )}
    </div>
  );
}
